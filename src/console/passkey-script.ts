// The console's one script (/console/assets/passkey.js), served from the worker's own origin: only the
// sign-in and security pages allow it (index.tsx). It drives the browser's WebAuthn API for the forms
// marked `data-passkey` (passkeys.tsx) and nothing else; without it those pages keep their link forms.
// It uses the browser's own JSON helpers, so no encoding code ships here.
export const PASSKEY_JS = `"use strict";
(() => {
  const PKC = window.PublicKeyCredential;
  const usable =
    !!PKC &&
    typeof PKC.parseCreationOptionsFromJSON === "function" &&
    typeof PKC.parseRequestOptionsFromJSON === "function" &&
    !!navigator.credentials;

  async function post(url, body) {
    const response = await fetch(url, { method: "POST", body: new URLSearchParams(body), credentials: "same-origin" });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.message || "The request was refused: reload the page and try again.");
    return data;
  }

  for (const form of document.querySelectorAll("form[data-passkey]")) {
    const section = form.closest("section");
    const status = section.querySelector("[data-passkey-status]");
    section.hidden = false;
    if (!usable) {
      form.hidden = true;
      status.textContent = form.dataset.unusable;
      continue;
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = form.querySelector("button");
      button.disabled = true;
      status.textContent = "Waiting for your passkey…";
      try {
        const body = new FormData(form);
        const options = await post(form.dataset.options, body);
        const credential =
          form.dataset.passkey === "register"
            ? await navigator.credentials.create({ publicKey: PKC.parseCreationOptionsFromJSON(options) })
            : await navigator.credentials.get({ publicKey: PKC.parseRequestOptionsFromJSON(options) });
        body.set("response", JSON.stringify(credential.toJSON()));
        const done = await post(form.dataset.verify, body);
        status.textContent = "Done.";
        window.location.assign(done.redirect);
      } catch (error) {
        status.textContent =
          error && error.name === "NotAllowedError"
            ? "The passkey request was cancelled or timed out."
            : (error && error.message) || "Something went wrong: try again.";
        button.disabled = false;
      }
    });
  }
})();
`;
