// The session's cart as data: the lines the agent builds (sent whole on every change: replace
// semantics), the server's answer (prices, totals) and its refusals per line. Pure functions,
// unit-tested (tests/js/agent.test.js); views.js draws them.
import { interpolate, pgettext } from "../common/gettext.js";
import { money } from "../common/format.js";
import { failureView, onReader, readerView } from "./payment-words.js";
import { duration } from "./queue-state.js";

/**
 * @typedef {{group: string, value: string}} Modifier
 * @typedef {{menu_item_id: string, name: string, quantity: number, modifier_option_ids: string[], modifiers: Modifier[], notes: string}} Line
 * @typedef {{lines: Array<{menu_item_id: string, name: string, quantity: number, unit_price_cents: number, modifier_option_ids?: string[], customer_words?: {name: string} | null, modifiers: Modifier[], notes?: string}>,
 *   currency?: string, subtotal_cents: number, tax_cents: number, total_cents: number, status?: string, paid?: boolean, order_number?: string | null}} Order
 * @typedef {Record<string, string[]>} LineErrors refusals by line index
 */

/** The lines of an order read back from the server (after a reload or a second device). @param {Order | null} order @returns {Line[]} */
export const linesOf = (order) =>
  (order ? order.lines : []).map((line) => ({
    menu_item_id: line.menu_item_id,
    name: line.name,
    quantity: line.quantity,
    modifier_option_ids: line.modifier_option_ids || [],
    modifiers: line.modifiers,
    notes: line.notes || "",
  }));

/** What POST /api/orders takes. @param {Line[]} lines */
export const linesToSend = (lines) =>
  lines.map(({ menu_item_id, quantity, modifier_option_ids, notes }) => ({ menu_item_id, quantity, modifier_option_ids, notes }));

/** One line changed (a line brought to 0 leaves the cart). @param {Line[]} lines @param {number} index @param {Partial<Line>} change */
export const changeLine = (lines, index, change) =>
  lines.map((line, at) => (at === index ? { ...line, ...change } : line)).filter((line) => line.quantity > 0);

/**
 * A 422's refusals by line, kept for the lines the saved cart has (a refused new line has none
 * on screen: its words go with the cart's error). @param {LineErrors | undefined} refused @param {Order | null} order
 * @returns {LineErrors}
 */
export function refusedLines(refused, order) {
  const saved = order ? order.lines.length : 0;
  return Object.fromEntries(Object.entries(refused || {}).filter(([index]) => Number(index) < saved));
}

/** The words of a 422 for lines the saved cart does not hold. @param {LineErrors | undefined} refused @param {Order | null} order */
export const refusedNewLines = (refused, order) =>
  Object.entries(refused || {})
    .filter(([index]) => Number(index) >= (order ? order.lines.length : 0))
    .flatMap(([, problems]) => problems);

/** Why the cart was not saved, in words. @param {{status?: number, code?: string, message?: string, details?: any}} error @param {Order | null} [order] */
export function cartRefusal(error, order = null) {
  if (error.status === 422) {
    const extra = refusedNewLines(error.details && error.details.lines, order).join(" ");
    return extra
      ? interpolate(pgettext("agent", "The change was not saved: some lines cannot be ordered as asked (%(problems)s). The cart shows what was last saved."), { problems: extra.replace(/\.$/, "") })
      : pgettext("agent", "The change was not saved: some lines cannot be ordered as asked. The cart shows what was last saved.");
  }
  if (error.status === 401) return pgettext("agent", "You were signed out; sign in again and the cart will be sent.");
  const why = error.status === 409 && error.code === "ORDER_LOCKED" ? pgettext("agent", "the cart is locked while the customer pays") : error.message;
  return interpolate(pgettext("agent", "The change was not saved: %(why)s. The cart shows what was last saved."), { why: String(why || pgettext("agent", "no answer")).replace(/\.$/, "") });
}

/**
 * Whether a refused save puts the cart back to the server's last saved one with "Try again"
 * (the cart on screen is always the server's, never lines it refused). Not for a 422, which goes back
 * too but with its words next to the lines and nothing to retry (session.js), nor a 401, whose
 * cart is sent as it is once the agent signs in again.
 * @param {{status?: number}} error
 */
export const revertsToSaved = (error) => error.status !== 422 && error.status !== 401;

/**
 * The payment box by session status, order and payment (the cause of a failed card in words).
 * @param {string} status @param {Order | null} order @param {import("./payment-words.js").Payment | null} [payment]
 */
export function paymentView(status, order, payment = null) {
  if (status !== "payment") return { state: "none", text: "" };
  if (payment && onReader(payment)) return readerView(payment, Boolean(order && order.status === "failed"));
  if (order && order.status === "failed") return failureView(payment);
  return { state: "waiting", text: pgettext("agent", "Waiting for the customer's card…") };
}

/** Each ending's sentence, said when needed. @type {Record<string, () => string>} */
const OUTCOME = {
  completed: () => pgettext("agent", "Session completed after %(duration)s."),
  abandoned: () => pgettext("agent", "Session abandoned after %(duration)s."),
  failed: () => pgettext("agent", "Session failed after %(duration)s."),
};

/** The words when a session ends. @param {{status: string, duration_seconds?: number}} ended @param {Order | null} [order] the paid order, if any */
export function finishText(ended, order = null) {
  const paid = ended.status === "completed" && order !== null && Boolean(order.paid); // the server's one rule
  const outcome = OUTCOME[ended.status];
  const after = outcome
    ? interpolate(outcome(), { duration: duration(ended.duration_seconds || 0) })
    : interpolate(pgettext("agent", "Session %(status)s after %(duration)s."), { status: ended.status, duration: duration(ended.duration_seconds || 0) });
  if (!paid || !order) return after;
  return `${interpolate(pgettext("agent", "Paid: order %(number)s, %(total)s."), { number: String(order.order_number), total: money(order.total_cents, order.currency) })} ${after}`;
}

/**
 * What stands between "End session" and the end: no reason chosen yet ("reason": none is
 * preselected, so an agent never ends as Completed by default), or Completed with a cart nobody
 * paid ("unpaid": the agent confirms first). "" when the session may end at once.
 * @param {string} reason @param {Order | null} order @param {Line[]} lines
 * @returns {"" | "reason" | "unpaid"}
 */
export function endCheck(reason, order, lines) {
  if (!reason) return "reason";
  if (reason === "completed" && lines.length > 0 && !(order && order.paid)) return "unpaid";
  return "";
}

/** What the agent reads about a held-back end. @param {"" | "reason" | "unpaid"} problem */
export function endWords(problem) {
  if (problem === "reason") return pgettext("agent", "Choose why the session ends.");
  if (problem === "unpaid") return pgettext("agent", "The cart has not been paid. End the session as completed anyway? The customer will not be charged.");
  return "";
}
