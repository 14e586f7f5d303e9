// The dashboard's sentences about what happened (sign-in refusals, accepting, the live link):
// one catalogue, free of the DOM, unit-tested (tests/js/agent.test.js).

const SIGN_IN_WORDS = {
  INVALID_CREDENTIALS: "The email or password is incorrect.",
  ACCOUNT_DISABLED: "This account has been disabled. Ask your manager to enable it again.",
  PANEL_ONLY_ACCOUNT: "This is an owner panel account: sign in at /panel/ instead.",
  INVALID_2FA_CODE: "The authentication code is incorrect. Enter the current code from your app.",
  CHALLENGE_EXPIRED: "The sign-in took too long. Enter your password again.",
  CHALLENGE_ALREADY_USED: "That sign-in step was already used. Enter your password again.",
  CHALLENGE_NOT_FOUND: "That sign-in step is unknown. Enter your password again.",
  NETWORK: "The server cannot be reached. Check the connection and try again.",
};

/** The refusals after which sign-in starts again at the password. */
export const RESTART_CODES = Object.freeze(["CHALLENGE_EXPIRED", "CHALLENGE_ALREADY_USED", "CHALLENGE_NOT_FOUND"]);

/** @param {{code?: string, message?: string}} error */
export function signInRefusal(error) {
  if (SIGN_IN_WORDS[error.code]) return SIGN_IN_WORDS[error.code];
  if (error.code === "VALIDATION_ERROR") return "Enter a valid email address, your password and, when asked, the 6-digit code.";
  return error.message;
}

/** The rate limit's countdown. @param {number} left seconds, 0 when over */
export const tooManyAttempts = (left) =>
  left > 0 ? `Too many attempts. Try again in ${left} second${left === 1 ? "" : "s"}.` : "You can try again now.";

/**
 * Why a session could not be accepted, or "" when nothing is to be said (a 401 goes to sign-in).
 * @param {{code?: string, status?: number, message?: string}} error @param {string} kioskName
 */
export function acceptRefusal(error, kioskName) {
  switch (error.code) {
    case "SESSION_ALREADY_ACCEPTED":
      return `${kioskName}: taken by another agent.`;
    case "AGENT_HAS_ACTIVE_SESSION":
      return "You already have a session in progress: finish it before accepting another.";
    case "SESSION_ALREADY_ENDED":
    case "SESSION_NOT_FOUND":
      return `${kioskName}: the customer has left.`;
    default:
      return error.status === 401 ? "" : `The session could not be accepted: ${error.message}`;
  }
}

/** The live link's label. @param {string} state "connected", else the socket's state */
export const liveLabel = (state) => (state === "connected" ? "Live" : "Live updates unavailable: checking every 2 s");

/**
 * Why a queue card left ("" when the agent's own doing needs no words). @param {string} why
 * "claimed", "lapsed" (the countdown ran out here) or SessionWithdrawn's reason
 */
export function goneReason(why) {
  switch (why) {
    case "claimed":
      return "taken by another agent";
    case "lapsed":
    case "offer_expired":
      return "the offer lapsed and went to the next agent";
    case "agent_unavailable":
    case "accepted_elsewhere":
      return "";
    default:
      return "withdrawn by the kiosk";
  }
}

/**
 * The customer's language in the agent's words ("es-ES" -> "Spanish (Spain)", "es" -> "Spanish"),
 * the one wording of it everywhere in the dashboard: the incoming card and the session header
 * (issue 23 parts 2 and 5); the tag itself when Intl does not know it.
 * @param {string | null | undefined} locale @param {string} [displayIn] the agent's language
 */
export function languageOf(locale, displayIn = "en") {
  if (!locale) return "";
  try {
    return new Intl.DisplayNames([displayIn], { type: "language", languageDisplay: "standard" }).of(locale) || locale;
  } catch (unknown) {
    return locale; // not a well-formed tag: shown as the kiosk sent it
  }
}

const STATUS_BANNER = {
  available: ["Available", "Customers are offered to you as they arrive."],
  busy: ["Busy", "You are serving a customer; the next is offered when you finish."],
  break: ["On break", "No customers are offered to you. Set yourself available when you are ready."],
  offline: ["Offline", "No customers are offered to you. Set yourself available to take customers."],
};

/**
 * The large status line under the top bar: what the agent is and what it means for customers.
 * @param {string} status the agent's wire status @returns {{title: string, detail: string}}
 */
export function statusBanner(status) {
  const [title, detail] = STATUS_BANNER[status] || [status, ""];
  return { title, detail };
}
