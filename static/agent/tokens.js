// The Access tokens tab, which says what a token is for, makes one and revokes one.
// A token is what an integration (the owner's accounting or kitchen software) sends as
// `Authorization: Bearer …` to the token API (/api/v1): it reads the owner's orders and webhooks
// as this agent. The spec issues tokens only by signing in to the token API (POST /api/auth/login),
// so "Create token" makes exactly that call with the agent's email, asking the password again
// (and the 6-digit code with 2FA): a token is a lasting key to the owner's data. The token is
// shown once; the server keeps no plaintext copy. Revoking is DELETE /api/tokens/{id} (main.js).
import { interpolate, pgettext } from "../common/gettext.js";
import { asFailure } from "../common/report.js";
import { sendJson } from "../common/http.js";
import { watch } from "../common/store.js";
import { byId, showError } from "../common/ui.js";
import { answered } from "./api.js";

/** @typedef {import("./state.js").AgentState} AgentState */

/** Each refusal's words, said when needed. @type {Record<string, () => string>} */
const WORDS = {
  INVALID_CREDENTIALS: () => pgettext("agent", "The password is incorrect."),
  INVALID_2FA_CODE: () => pgettext("agent", "Enter the current 6-digit code from your authentication app."),
  ACCOUNT_DISABLED: () => pgettext("agent", "This account has been disabled."),
  TLS_REQUIRED: () => pgettext("agent", "Tokens can only be made over HTTPS."),
  NETWORK: () => pgettext("agent", "The server cannot be reached. Check the connection and try again."),
};

/** Why no token was made, in words. @param {{code?: string, message?: string, retryAfter?: number | null}} error */
export function tokenRefusal(error) {
  if (error.code && WORDS[error.code]) return WORDS[error.code]();
  if (error.code === "RATE_LIMITED") return interpolate(pgettext("agent", "Too many attempts. Try again in %(count)s seconds."), { count: error.retryAfter || 60 });
  if (error.code === "VALIDATION_ERROR") return pgettext("agent", "Enter your password and, if you use two-step sign-in, the 6-digit code.");
  return interpolate(pgettext("agent", "No token was made: %(why)s"), { why: error.message || pgettext("agent", "no answer") });
}

/**
 * @param {import("../common/store.js").Store<AgentState>} store
 * @param {{announce: (text: string) => void, reload: () => void}} hooks
 */
export function createTokens(store, { announce, reload }) {
  const form = byId("token-form", HTMLFormElement);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const user = store.get().user;
    const password = byId("token-password", HTMLInputElement).value;
    const code = byId("token-code", HTMLInputElement).value.trim();
    if (!user || !password) return store.set({ tokenForm: { error: pgettext("agent", "Enter your password."), issued: "" } });
    try {
      const body = await sendJson("/api/auth/login", {
        method: "POST",
        body: { email: user.email, password, ...(code ? { code } : {}) },
        credentials: "omit", // the token API is not the dashboard's cookie session
        unreachable: WORDS.NETWORK(),
        answered,
      });
      form.reset();
      store.set({ tokenForm: { error: "", issued: body.token } });
      announce(pgettext("agent", "Token made. Copy it now: it is shown only once."));
      reload();
    } catch (caught) {
      const error = asFailure(caught);
      store.set({ tokenForm: { error: tokenRefusal(error), issued: "" } });
    }
  });
  byId("token-issued-done").addEventListener("click", () => store.set({ tokenForm: { error: "", issued: "" } }));

  watch(store, (s) => s.tokenForm, ({ error, issued }) => {
    showError(byId("token-error"), error);
    byId("token-issued").hidden = !issued;
    byId("token-issued-value", HTMLInputElement).value = issued;
    if (issued) byId("token-issued-value").focus();
  });
}
