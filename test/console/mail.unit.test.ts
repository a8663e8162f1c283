// How a sign-in link leaves: through the configured mail API, or (local development only) the log.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sendSignInLink } from "../../src/console/mail";

const URL_ = "https://api.example.test/console/sign-in/l_token";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("sendSignInLink", () => {
  it("posts {from, to, subject, text} with the provider's key", async () => {
    const fetch = vi.fn(async () => new Response("{}", { status: 200 }));
    vi.stubGlobal("fetch", fetch);
    await sendSignInLink(
      {
        MAIL_PROVIDER_URL: "https://mail.example/emails",
        MAIL_PROVIDER_KEY: "k",
        MAIL_FROM: "Console <c@x.example>",
        SANDBOX: "false",
      },
      "ada@example.test",
      URL_,
    );
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://mail.example/emails");
    expect(new Headers(init.headers).get("authorization")).toBe("Bearer k");
    const body = JSON.parse(String(init.body));
    expect(body).toMatchObject({ from: "Console <c@x.example>", to: "ada@example.test" });
    expect(body.text).toContain(URL_);
  });

  it("without a provider prints the link only in local development, and never elsewhere", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await sendSignInLink(
      { MAIL_PROVIDER_URL: "", MAIL_PROVIDER_KEY: "", MAIL_FROM: "", SANDBOX: "true" },
      "a@x.test",
      URL_,
    );
    expect(info.mock.calls[0]?.[0]).toContain(URL_);
    await sendSignInLink(
      { MAIL_PROVIDER_URL: "", MAIL_PROVIDER_KEY: "", MAIL_FROM: "", SANDBOX: "false" },
      "a@x.test",
      URL_,
    );
    expect(warn.mock.calls[0]?.[0]).not.toContain("l_token");
    expect(info).toHaveBeenCalledTimes(1);
  });
});
