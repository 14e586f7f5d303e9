// Handing the session in hand to a colleague (one who speaks the customer's language, or is free):
// the choices the Transfer control offers, the request each makes, and the words said while waiting
// and after. Pure, unit-tested (tests/js/agent-transfer.test.js); transfer.js does the calls,
// views.js draws the control.

import { interpolate, pgettext } from "../common/gettext.js";
import { languageOf } from "./words.js";

/**
 * @typedef {{agents: Array<{id: string, name: string, languages: string[]}>, languages: string[]}} Candidates
 * @typedef {{names: string[], seconds: number, startedAt: number}} Pending a transfer waiting for an answer
 * @typedef {{candidates: Candidates | null, pending: Pending | null, notice: string, error: string}} Transfer
 * @typedef {{value: string, label: string, group: "agent" | "language"}} Choice
 */

/** @type {Transfer} */
export const NO_TRANSFER = Object.freeze({ candidates: null, pending: null, notice: "", error: "" });

/** The Transfer list: each free colleague by name, then "Any agent who speaks …" per language. @param {Candidates | null} candidates @returns {Choice[]} */
export function transferChoices(candidates) {
  if (!candidates) return [];
  const agents = candidates.agents.map((agent) => ({
    value: `agent:${agent.id}`,
    label: agent.languages.length ? `${agent.name} (${agent.languages.join(", ")})` : agent.name,
    group: /** @type {const} */ ("agent"),
  }));
  const languages = candidates.languages.map((language) => ({
    value: `language:${language}`,
    label: interpolate(pgettext("agent", "Any agent who speaks %(language)s"), { language: languageOf(language) }),
    group: /** @type {const} */ ("language"),
  }));
  return [...agents, ...languages];
}

/** The POST body for a choice, or null for none. @param {string} value */
export function transferBody(value) {
  const [kind, id] = value.split(":", 2);
  if (kind === "agent" && /^\d+$/.test(id || "")) return { to_agent_id: Number(id) };
  if (kind === "language" && id) return { language: id };
  return null;
}

/** Seconds left before the offers lapse (0 once over). @param {Pending} pending @param {number} now */
export const pendingLeft = (pending, now) => Math.max(0, Math.ceil(pending.seconds - (now - pending.startedAt) / 1000));

/** What the sender sees while waiting. @param {Pending | null} pending @param {number} now */
export function waitingWords(pending, now) {
  if (!pending) return "";
  const who = pending.names.length === 1 ? pending.names[0] : interpolate(pgettext("agent", "%(count)s agents (%(names)s)"), { count: pending.names.length, names: pending.names.join(", ") });
  return interpolate(pgettext("agent", "Offered to %(who)s: waiting for an answer, %(count)s s left. The customer stays with you until then."), { who, count: pendingLeft(pending, now) });
}

/**
 * The pending transfer as GET /api/sessions/{id}/transfer tells it (after a reload), or null.
 * @param {{offers: Array<{agent: {name: string}}>, seconds_left: number} | null | undefined} pending @param {number} now
 * @returns {Pending | null}
 */
export function pendingFromServer(pending, now) {
  if (!pending || !pending.offers.length) return null;
  return { names: pending.offers.map((offer) => offer.agent.name), seconds: pending.seconds_left, startedAt: now };
}

/** Why a transfer ended without a taker (TransferLapsed's reason). @param {string} reason */
export function lapsedWords(reason) {
  if (reason === "cancelled") return cancelledWords();
  if (reason === "session_in_payment") return pgettext("agent", "Transfer cancelled: the customer is paying. The session stays with you.");
  return pgettext("agent", "Nobody took the transfer in time: the customer is still with you.");
}

export const cancelledWords = () => pgettext("agent", "Transfer cancelled: the customer stays with you.");

/** Why taking a transfer back was refused, in words. @param {{code?: string, status?: number, message?: string}} error */
export function cancelRefusal(error) {
  switch (error.code) {
    case "TRANSFER_ALREADY_ACCEPTED":
      return pgettext("agent", "Too late to cancel: a colleague has already taken the customer over.");
    case "TRANSFER_NOT_PENDING":
      return pgettext("agent", "There is no transfer to cancel: the customer is still with you.");
    default:
      return error.status === 401 ? "" : interpolate(pgettext("agent", "The transfer could not be cancelled: %(why)s"), { why: error.message || "" });
  }
}

/** Why a transfer was refused, in words. @param {{code?: string, status?: number, message?: string}} error */
export function transferRefusal(error) {
  switch (error.code) {
    case "TRANSFER_TARGET_UNAVAILABLE":
      return pgettext("agent", "Nobody you chose is free just now. Refresh the list and choose again.");
    case "TRANSFER_IN_PROGRESS":
      return pgettext("agent", "This session is already being transferred: wait for the answer.");
    case "INVALID_STATE":
      return pgettext("agent", "A session can be transferred only while nobody is paying: cancel the payment first.");
    case "SESSION_NOT_OWNED":
    case "SESSION_ALREADY_ENDED":
      return pgettext("agent", "This session is no longer yours to transfer.");
    default:
      return error.status === 401 ? "" : interpolate(pgettext("agent", "The session could not be transferred: %(why)s"), { why: error.message || "" });
  }
}

/**
 * SessionTransferred, on the sender's and the receiver's channels.
 * @typedef {{session_id: string, agent: {id: string, name: string} | null}} TransferredMessage
 */

/** What the sender is told when a colleague took the session. @param {{agent: {name: string} | null}} message @param {string} kioskName */
export const handedOverWords = (message, kioskName) =>
  message.agent
    ? interpolate(pgettext("agent", "%(agent)s is now serving the customer at %(kiosk)s."), { agent: message.agent.name, kiosk: kioskName })
    : interpolate(pgettext("agent", "A colleague is now serving the customer at %(kiosk)s."), { kiosk: kioskName });
