// Sign-in as the agent API defines it (Sanctum's SPA flow): GET /api/csrf-cookie, POST /api/login,
// then POST /api/login/2fa when the account has a second factor. Every refusal is said in words.
import { get, post } from "./api.js";
import { $, showError } from "./ui.js";

const WORDS = {
  INVALID_CREDENTIALS: "The email or password is incorrect.",
  ACCOUNT_DISABLED: "This account has been disabled. Ask your manager to enable it again.",
  PANEL_ONLY_ACCOUNT: "This is an owner panel account: sign in at /panel/ instead.",
  INVALID_2FA_CODE: "The authentication code is incorrect. Enter the current code from your app.",
  CHALLENGE_EXPIRED: "The sign-in took too long. Enter your password again.",
  CHALLENGE_ALREADY_USED: "That sign-in step was already used. Enter your password again.",
  CHALLENGE_NOT_FOUND: "That sign-in step is unknown. Enter your password again.",
  NETWORK: "The server cannot be reached. Check the connection and try again.",
};
const RESTART_CODES = new Set(["CHALLENGE_EXPIRED", "CHALLENGE_ALREADY_USED", "CHALLENGE_NOT_FOUND"]);

let countdown = null;

function waitOut(seconds) {
  const button = $("#signin-submit");
  const error = $("#signin-error");
  window.clearInterval(countdown);
  let left = seconds;
  const show = () => {
    if (left <= 0) {
      window.clearInterval(countdown);
      button.disabled = false;
      showError(error, "You can try again now.");
      return;
    }
    button.disabled = true;
    showError(error, `Too many attempts. Try again in ${left} second${left === 1 ? "" : "s"}.`);
    left -= 1;
  };
  show();
  countdown = window.setInterval(show, 1000);
}

function describe(error) {
  if (WORDS[error.code]) return WORDS[error.code];
  if (error.code === "VALIDATION_ERROR") return "Enter a valid email address, your password and, when asked, the 6-digit code.";
  return error.message;
}

/** Shows the sign-in form (over the dashboard when `reason` says why) and resolves with the user. */
export function signIn(reason) {
  const section = $("#signin");
  const form = $("#signin-form");
  section.hidden = false;
  section.classList.toggle("overlay", Boolean(reason));
  $("#signin-reason").textContent = reason;
  $("#signin-reason").hidden = !reason;
  showError($("#signin-error"), "");
  let challenge = null;
  const codeStep = (on) => {
    $("#password-step").hidden = on;
    $("#code-step").hidden = !on;
    $("#signin-submit").textContent = on ? "Verify" : "Sign in";
    (on ? $("#signin-code") : $("#signin-email")).focus();
  };
  codeStep(false);

  return new Promise((resolve) => {
    const submit = async (event) => {
      event.preventDefault();
      showError($("#signin-error"), "");
      try {
        await get("/api/csrf-cookie");
        const body = challenge
          ? await post("/api/login/2fa", { challenge_id: challenge, code: $("#signin-code").value.trim() })
          : await post("/api/login", {
              email: $("#signin-email").value.trim(),
              password: $("#signin-password").value,
              remember: $("#signin-remember").checked,
            });
        if (body.status === "2fa_required") {
          challenge = body.challenge_id;
          codeStep(true);
          return;
        }
        form.removeEventListener("submit", submit);
        $("#signin-password").value = "";
        $("#signin-code").value = "";
        section.hidden = true;
        resolve(body.user);
      } catch (error) {
        if (error.status === 429) return waitOut(error.retryAfter || 60);
        showError($("#signin-error"), describe(error));
        if (RESTART_CODES.has(error.code)) {
          // Back to the first step, as the words ask: the email stays, the password is typed again.
          challenge = null;
          codeStep(false);
          $("#signin-code").value = "";
          $("#signin-password").value = "";
          $("#signin-password").focus();
        }
      }
    };
    form.addEventListener("submit", submit);
  });
}
