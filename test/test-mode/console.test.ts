// The console's switch between the user's live and test data: each page shows one mode's workspaces,
// a workspace made while on test data is a test workspace, and keys are made in either mode.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { Browser, invitation, signedIn } from "../console/support";
import { createUser, createWorkspace } from "../support/seed";

describe("the console in test mode", () => {
  it("shows one mode's data at a time and makes workspaces and keys in the chosen mode", async () => {
    const user = await createUser();
    await createWorkspace(user.id, { name: "Live studio" });
    await createWorkspace(user.id, { name: "Test studio", mode: "test" });
    const browser = await signedIn(user.id);

    const live = await browser.get("/console/workspaces");
    expect(live.html).toContain("Live studio");
    expect(live.html).not.toContain("Test studio");
    expect(live.html).toContain("switch to test");

    const csrf = await browser.csrf("/console/workspaces");
    const switched = await browser.post(
      "/console/mode",
      { csrf, mode: "test" },
      { referer: "https://api.example.test/console/workspaces" },
    );
    expect(switched.status).toBe(303);
    expect(switched.headers.get("location")).toBe("/console/workspaces");
    const cookie = switched.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^__Host-console-mode=test;/);
    browser.extraCookies = "__Host-console-mode=test";

    const test = await browser.get("/console/workspaces");
    expect(test.html).toContain("Test studio");
    expect(test.html).not.toContain("Live studio");

    const created = await browser.post("/console/workspaces", {
      csrf: await browser.csrf("/console/workspaces"),
      name: "Made on test data",
      timezone: "Europe/Paris",
    });
    expect(created.status).toBeLessThan(400);
    const made = await env.DB.prepare("SELECT mode FROM workspaces WHERE name = ?")
      .bind("Made on test data")
      .first();
    expect(made).toEqual({ mode: "test" });

    const key = await browser.post("/console/keys", {
      csrf: await browser.csrf(),
      name: "Test key",
      abilities: ["posts"],
      mode: "test",
    });
    expect(key.status).toBe(200);
    expect(key.html).toMatch(/spk_test_[A-Za-z0-9_-]{43}/);
  });

  it("opens on test data for a user who has only test workspaces (the demo user of npm run dev)", async () => {
    const user = await createUser();
    await createWorkspace(user.id, { name: "Only test", mode: "test" });
    const browser = new Browser();
    const answer = await browser.post(await invitation(user.id));
    expect(answer.headers.getSetCookie()).toContain(
      "__Host-console-mode=test; Path=/; HttpOnly; Secure; SameSite=Lax",
    );
    browser.extraCookies = "__Host-console-mode=test";
    expect((await browser.get("/console/workspaces")).html).toContain("Only test");
  });
});
