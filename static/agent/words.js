// The dashboard's sentences about what happened (sign-in refusals, accepting, the live link),
// free of the DOM, unit-tested (tests/js/agent.test.js). Each is a gettext msgid in the "agent"
// context (English only: locale/en/LC_MESSAGES/djangojs.po, made by makemessages).
import { interpolate, npgettext, pgettext } from "../common/gettext.js";

/** Each refusal's words, said when needed (a catalogue may load after this module). */
/** @type {Record<string, () => string>} */
const SIGN_IN_WORDS = {
  INVALID_CREDENTIALS: () => pgettext("agent", "The email or password is incorrect."),
  ACCOUNT_DISABLED: () => pgettext("agent", "This account has been disabled. Ask your manager to enable it again."),
  PANEL_ONLY_ACCOUNT: () => pgettext("agent", "This is an owner panel account: sign in at /panel/ instead."),
  INVALID_2FA_CODE: () => pgettext("agent", "The authentication code is incorrect. Enter the current code from your app."),
  CHALLENGE_EXPIRED: () => pgettext("agent", "The sign-in took too long. Enter your password again."),
  CHALLENGE_ALREADY_USED: () => pgettext("agent", "That sign-in step was already used. Enter your password again."),
  CHALLENGE_NOT_FOUND: () => pgettext("agent", "That sign-in step is unknown. Enter your password again."),
  NETWORK: () => pgettext("agent", "The server cannot be reached. Check the connection and try again."),
};

/** The refusals after which sign-in starts again at the password. */
export const RESTART_CODES = Object.freeze(["CHALLENGE_EXPIRED", "CHALLENGE_ALREADY_USED", "CHALLENGE_NOT_FOUND"]);

/** @param {{code?: string, message?: string}} error */
export function signInRefusal(error) {
  const words = SIGN_IN_WORDS[error.code || ""];
  if (words) return words();
  if (error.code === "VALIDATION_ERROR") return pgettext("agent", "Enter a valid email address, your password and, when asked, the 6-digit code.");
  return error.message;
}

/** The rate limit's countdown. @param {number} left seconds, 0 when over */
export const tooManyAttempts = (left) =>
  left > 0
    ? interpolate(npgettext("agent", "Too many attempts. Try again in %(count)s second.", "Too many attempts. Try again in %(count)s seconds.", left), { count: left })
    : pgettext("agent", "You can try again now.");

/**
 * Why a session could not be accepted, or "" when nothing is to be said (a 401 goes to sign-in).
 * @param {{code?: string, status?: number, message?: string, details?: {capacity?: number}}} error @param {string} kioskName
 */
export function acceptRefusal(error, kioskName) {
  switch (error.code) {
    case "SESSION_ALREADY_ACCEPTED":
      return interpolate(pgettext("agent", "%(kiosk)s: taken by another agent."), { kiosk: kioskName });
    case "AGENT_HAS_ACTIVE_SESSION":
      return pgettext("agent", "You already have a session in progress: finish it before accepting another.");
    case "AGENT_AT_CAPACITY": {
      const capacity = error.details && error.details.capacity;
      return capacity
        ? interpolate(pgettext("agent", "You are serving as many customers as you can at once (%(capacity)s): finish one before accepting another."), { capacity: String(capacity) })
        : pgettext("agent", "You are serving as many customers as you can at once: finish one before accepting another.");
    }
    case "AGENT_IN_CONVERSATION":
      return pgettext("agent", "You are in a video conversation: send it to payment or end it before accepting another video customer.");
    case "SESSION_ALREADY_ENDED":
    case "SESSION_NOT_FOUND":
      return interpolate(pgettext("agent", "%(kiosk)s: the customer has left."), { kiosk: kioskName });
    default:
      return error.status === 401 ? "" : interpolate(pgettext("agent", "The session could not be accepted: %(reason)s"), { reason: error.message || "" });
  }
}

/** The live link's label. @param {string} state "connected", else the socket's state */
export const liveLabel = (state) =>
  state === "connected" ? pgettext("agent", "Live") : pgettext("agent", "Live updates unavailable: checking every 2 s");

/**
 * Why a queue card left ("" when the agent's own doing needs no words). @param {string} why
 * "claimed", "lapsed" (the countdown ran out here) or SessionWithdrawn's reason
 */
export function goneReason(why) {
  switch (why) {
    case "claimed":
      return pgettext("agent", "taken by another agent");
    case "lapsed":
    case "offer_expired":
      return pgettext("agent", "the offer lapsed and went to the next agent");
    case "agent_unavailable":
    case "accepted_elsewhere":
      return "";
    default:
      return pgettext("agent", "withdrawn by the kiosk");
  }
}

/**
 * The customer's language in the agent's words ("es-ES" -> "Spanish (Spain)", "es" -> "Spanish"),
 * the one wording of it everywhere in the dashboard: the incoming card and the session header;
 * the tag itself when Intl does not know it.
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

/** The status line's title and meaning, by the agent's wire status (said when needed). */
/** @type {Record<string, () => [string, string]>} */
const STATUS_BANNER = {
  available: () => [pgettext("agent", "Available"), pgettext("agent", "Customers are offered to you as they arrive.")],
  busy: () => [pgettext("agent", "Busy"), pgettext("agent", "You are serving a customer; the next is offered when you finish.")],
  break: () => [pgettext("agent", "On break"), pgettext("agent", "No customers are offered to you. Set yourself available when you are ready.")],
  offline: () => [pgettext("agent", "Offline"), pgettext("agent", "No customers are offered to you. Set yourself available to take customers.")],
};

/**
 * The large status line under the top bar: what the agent is and what it means for customers.
 * With more than one seat (GET /api/user's `capacity`), "busy" says every seat is taken and
 * "available" how many are, so an agent holding customers with seats left is never told it waits
 * for the one it serves to finish.
 * @param {string} status the agent's wire status
 * @param {{capacity?: number, sessions_held?: number}} [seats] GET /api/user's seats
 * @returns {{title: string, detail: string}}
 */
export function statusBanner(status, seats = {}) {
  const words = STATUS_BANNER[status];
  const [title, detail] = words ? words() : [status, ""];
  const capacity = seats.capacity || 1;
  const held = seats.sessions_held || 0;
  if (capacity > 1 && status === "busy") {
    return { title, detail: interpolate(pgettext("agent", "All %(capacity)s seats are taken: the next customer is offered when one frees."), { capacity: String(capacity) }) };
  }
  if (capacity > 1 && status === "available" && held > 0) {
    const taken = interpolate(pgettext("agent", "%(held)s of %(capacity)s seats taken."), { held: String(held), capacity: String(capacity) });
    return { title, detail: `${taken} ${detail}` };
  }
  return { title, detail };
}
