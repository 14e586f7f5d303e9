// Sign-in as the agent API defines it (Sanctum's SPA flow): GET /api/csrf-cookie, POST /api/login,
// then POST /api/login/2fa when the account has a second factor. Every refusal is said in words
// (words.js); the form's state is in the store, the fields are what the agent types.
import { asFailure } from "../common/report.js";
import { byId } from "../common/ui.js";
import { get, post } from "./api.js";
import { RESTART_CODES, signInRefusal, tooManyAttempts } from "./words.js";

/** @typedef {import("../common/store.js").Store<import("./state.js").AgentState>} AgentStore */

/**
 * Shows the sign-in form (over the dashboard when `reason` says why) and resolves with the user.
 * @param {AgentStore} store @param {string} reason
 * @returns {Promise<import("./state.js").User>}
 */
export function signIn(store, reason) {
  const form = byId("signin-form", HTMLFormElement);
  const field = (/** @type {string} */ id) => byId(id, HTMLInputElement);
  const setSignIn = (/** @type {object} */ change) => store.set(({ signIn }) => ({ signIn: { ...signIn, ...change } }));
  /** @type {string | null} */
  let challenge = null;
  let countdown = 0;
  store.set({ signIn: { open: true, reason, step: "password", error: "", waitLeft: 0 } });

  /** @param {number} seconds */
  function waitOut(seconds) {
    window.clearInterval(countdown);
    let left = seconds;
    const show = () => {
      setSignIn({ waitLeft: Math.max(left, 0), error: tooManyAttempts(Math.max(left, 0)) });
      if (left <= 0) window.clearInterval(countdown);
      left -= 1;
    };
    show();
    countdown = window.setInterval(show, 1000);
  }

  return new Promise((resolve) => {
    /** @param {SubmitEvent} event */
    const submit = async (event) => {
      event.preventDefault();
      if (store.get().signIn.waitLeft > 0) return;
      setSignIn({ error: "" });
      try {
        await get("/api/csrf-cookie");
        const body = challenge
          ? await post("/api/login/2fa", { challenge_id: challenge, code: field("signin-code").value.trim() })
          : await post("/api/login", {
              email: field("signin-email").value.trim(),
              password: field("signin-password").value,
              remember: field("signin-remember").checked,
            });
        if (body.status === "2fa_required") {
          challenge = body.challenge_id;
          setSignIn({ step: "code" });
          return;
        }
        form.removeEventListener("submit", submit);
        field("signin-password").value = "";
        field("signin-code").value = "";
        setSignIn({ open: false });
        resolve(body.user);
      } catch (caught) {
        const error = asFailure(caught);
        if (error.status === 429) return waitOut(error.retryAfter || 60);
        setSignIn({ error: signInRefusal(error) });
        if (RESTART_CODES.includes(error.code || "")) {
          // Back to the first step, as the words ask: the email stays, the password is typed again.
          challenge = null;
          setSignIn({ step: "password" });
          field("signin-code").value = "";
          field("signin-password").value = "";
          field("signin-password").focus();
        }
      }
    };
    form.addEventListener("submit", submit);
  });
}
