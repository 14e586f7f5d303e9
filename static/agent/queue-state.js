// The incoming queue as data: cards keyed by session id with when each arrived, and when each
// card left (so a poll asked before a card was claimed does not bring it back). Pure functions
// returning a new queue, unit-tested (tests/js/agent.test.js); views.js draws the cards.

/**
 * @typedef {{id: string, kiosk: {name: string, location?: string | null}, business: {name: string}, waiting_seconds?: number, created_at?: string, customer_locale?: string | null, accessible_mode?: boolean, offer_expires_at?: string | null, medium?: string, transfer_from?: {id: string, name: string} | null}} Incoming
 * @typedef {{session: Incoming, receivedAt: number}} Card
 * @typedef {{cards: Card[], goneAt: Record<string, number>}} Queue
 */

/** @type {Queue} */
export const EMPTY_QUEUE = Object.freeze({ cards: [], goneAt: {} });

const has = (/** @type {Queue} */ queue, /** @type {string} */ id) => queue.cards.some((card) => card.session.id === id);

/** @param {Queue} queue @param {Incoming} session @param {number} now @returns {Queue} */
export function addCard(queue, session, now) {
  if (has(queue, session.id)) return queue;
  return { ...queue, cards: [...queue.cards, { session, receivedAt: now }] };
}

/** @param {Queue} queue @param {string} id @param {number} now @returns {Queue} */
export function removeCard(queue, id, now) {
  if (!has(queue, id)) return queue;
  return { cards: queue.cards.filter((card) => card.session.id !== id), goneAt: { ...queue.goneAt, [id]: now } };
}

/**
 * The customer of a card chose another language (CustomerLocaleChanged, or a poll that says so).
 * @param {Queue} queue @param {string} id @param {string} locale @returns {Queue}
 */
export function withLocale(queue, id, locale) {
  const card = queue.cards.find((c) => c.session.id === id);
  if (!card || card.session.customer_locale === locale) return queue;
  return { ...queue, cards: queue.cards.map((c) => (c === card ? { ...c, session: { ...c.session, customer_locale: locale } } : c)) };
}

/**
 * The customer of a card turned the kiosk's accessible mode on or off (OfferAccessibleModeChanged,
 * or a poll that says so). @param {Queue} queue @param {string} id @param {boolean} on @returns {Queue}
 */
export function withAccessible(queue, id, on) {
  const card = queue.cards.find((c) => c.session.id === id);
  if (!card || Boolean(card.session.accessible_mode) === on) return queue;
  return { ...queue, cards: queue.cards.map((c) => (c === card ? { ...c, session: { ...c.session, accessible_mode: on } } : c)) };
}

/**
 * A poll answer is the whole truth as of when it was asked (`askedAt`): drop what is gone, add
 * what is new, but keep what the socket said since (a card pushed, a card claimed or withdrawn).
 * @param {Queue} queue @param {Incoming[]} sessions @param {number} askedAt @param {number} now
 * @returns {{queue: Queue, added: Incoming[]}}
 */
export function mergeSnapshot(queue, sessions, askedAt, now) {
  const ids = new Set(sessions.map((session) => session.id));
  let next = queue;
  for (const { session, receivedAt } of queue.cards) {
    if (!ids.has(session.id) && receivedAt < askedAt) next = removeCard(next, session.id, now);
  }
  /** @type {Incoming[]} */
  const added = [];
  for (const session of sessions) {
    if (has(next, session.id) && session.customer_locale) next = withLocale(next, session.id, session.customer_locale);
    if (has(next, session.id)) next = withAccessible(next, session.id, Boolean(session.accessible_mode));
    if (next.goneAt[session.id] >= askedAt || has(next, session.id)) continue;
    next = addCard(next, session, now);
    added.push(session);
  }
  const goneAt = Object.fromEntries(Object.entries(next.goneAt).filter(([, at]) => at >= askedAt - 60_000));
  return { queue: { ...next, goneAt }, added };
}

/**
 * Seconds a card's customer has waited by `now`. The dashboard's clock ticks once a second, so a
 * card can arrive after the last tick: that part counts as nothing, never as "-1:-1".
 * @param {Card} card @param {number} now
 */
export const waitedSeconds = (card, now) => (card.session.waiting_seconds || 0) + Math.max(0, Math.floor((now - card.receivedAt) / 1000));

/** @param {number} seconds */
export function duration(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return `${minutes}:${rest}`;
}
