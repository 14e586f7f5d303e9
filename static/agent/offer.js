// The offer on an incoming card: the time left before the offer lapses, and why the
// server set the agent on break (the customer's language is words.js languageOf). Pure, unit-tested
// (tests/js/agent-offer.test.js); views.js draws them.
//
// The time left is counted on the agent's own clock from what the server said when it made the
// offer: `offer_expires_at` less the server's "now" then (`created_at` + `waiting_seconds`), so
// a dashboard whose clock is off by minutes still counts the offer's real seconds.
import { interpolate, pgettext } from "../common/gettext.js";

/** @typedef {{created_at?: string, waiting_seconds?: number, offer_expires_at?: string | null, customer_locale?: string | null}} Offer */

/** Seconds the offer had left when the server described it; null when it carries no expiry. @param {Offer} offer */
export function offerSeconds(offer) {
  if (!offer.offer_expires_at || !offer.created_at) return null;
  const expires = Date.parse(offer.offer_expires_at);
  const created = Date.parse(offer.created_at);
  if (Number.isNaN(expires) || Number.isNaN(created)) return null;
  return (expires - created) / 1000 - (offer.waiting_seconds || 0);
}

/**
 * Whole seconds left at `now` for an offer received at `receivedAt` (0 once lapsed), null
 * without an expiry. Rounded down: `waiting_seconds` is whole seconds rounded down, so the
 * server's "now" may be up to a second later than it says, and the card had better go a moment
 * early than linger after the server withdrew it. @param {Offer} offer @param {number} receivedAt @param {number} now
 */
export function secondsLeft(offer, receivedAt, now) {
  const total = offerSeconds(offer);
  if (total === null) return null;
  return Math.max(0, Math.floor(total - (now - receivedAt) / 1000));
}

/** Whether an offer just received has (all but) lapsed: a poll that raced the lapse. @param {Offer} offer */
export const lapsedOnArrival = (offer) => {
  const total = offerSeconds(offer);
  return total !== null && total < 1;
};

/** @param {number | null} left */
export const offerLeftWords = (left) => (left === null ? "" : left > 0 ? interpolate(pgettext("agent", "%(count)s s to answer"), { count: left }) : pgettext("agent", "Offer lapsed"));

/**
 * What the dashboard says when the server set the agent's status, or "" when nothing is to be
 * said (the agent's own change). @param {{agent_status?: string, status_reason?: string, status_message?: string} | null} user
 */
export function statusNotice(user) {
  if (!user || !user.status_reason || user.agent_status === "available" || user.agent_status === "busy") return "";
  if (user.status_message) return user.status_message;
  return user.status_reason === "missed_offers"
    ? pgettext("agent", "You missed customers. Set yourself available when you are back.")
    : pgettext("agent", "You were set offline. Set yourself available when you are back.");
}
