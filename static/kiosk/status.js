// What a session status (the server's word: GET .../status or SessionStatusChanged, spec
// section 3) means on the kiosk's screen. Pure, unit-tested (tests/js/kiosk.test.js).

/** @typedef {"pending" | "active" | "payment" | "completed" | "cancelled" | "timed_out" | "refused" | "failed"} SessionStatus */

/** The statuses of a session still running: the kiosk polls and shows it. */
export const OPEN_STATUSES = Object.freeze(["pending", "active", "payment"]);

/** @param {string | null | undefined} status */
export const isOpen = (status) => OPEN_STATUSES.includes(/** @type {any} */ (status));

/**
 * Where a status leads: the waiting screen, the session screen (with the agent), the thank-you
 * (completed: the paid order tells the number) or the polite end.
 * @param {string} status
 * @returns {"waiting" | "session" | "completed" | "ended"}
 */
export function destinationOf(status) {
  if (status === "pending") return "waiting";
  if (status === "active" || status === "payment") return "session";
  if (status === "completed") return "completed";
  return "ended";
}

/**
 * Whether the agent's arrival is announced: the session just left the queue (or the kiosk just
 * learnt of it).
 * @param {string | null} previous @param {string} next
 */
export const agentJustArrived = (previous, next) =>
  (next === "active" || next === "payment") && (previous === "pending" || previous === null);

/**
 * Whether another agent took the session over (a transfer): it was served and
 * still is, by someone else. @param {{status: string, agent?: {id?: string, name: string} | null} | null} previous
 * @param {{status: string, agent?: {id?: string, name: string} | null}} next
 */
export function agentChanged(previous, next) {
  const serving = (/** @type {string} */ status) => status === "active" || status === "payment";
  if (!previous || !serving(previous.status) || !serving(next.status) || !previous.agent || !next.agent) return false;
  const key = (/** @type {{id?: string, name: string}} */ agent) => agent.id || agent.name;
  return key(previous.agent) !== key(next.agent);
}

/** The payment step was withdrawn (the agent cancelled it): back from payment to active. */
export const paymentWithdrawn = (/** @type {string | null} */ previous, /** @type {string} */ next) =>
  previous === "payment" && next === "active";

/**
 * A paid order's number, when the order read after "completed" is a real paid one (an agent may
 * end a session as completed with a draft cart: that is no payment).
 * `paid` is the server's one rule (apps/orders/models.py), never a list of statuses kept here.
 * @param {{paid?: boolean, order_number?: string | null} | null} order
 */
export const paidOrderNumber = (order) => (order && order.paid && order.order_number ? order.order_number : null);

/**
 * Whether "Are you still there?" may end the session: only while the customer waits for an agent
 * (or orders alone). While an agent serves (active, payment) the agent decides: a customer who
 * talks without touching the screen is still there.
 * @param {string | null | undefined} status
 */
export const inactivityApplies = (status) => status === "pending";

/** Whether leaving asks first: the cart holds something. @param {{lines?: unknown[]} | null} order */
export const leavingAsks = (order) => Boolean(order && order.lines && order.lines.length > 0);
