// Ordering alone while waiting: when the kiosk offers it, the cart the customer
// builds (the request lines POST .../order takes, kept as the server last answered them), the
// options chosen for one item, and what each refusal says. Pure, unit-tested
// (tests/js/kiosk-self-service.test.js); alone.js acts, views.js draws.
import { money } from "../common/format.js";
import { t } from "./messages.js";
import { failureReason } from "./words.js";

/**
 * @typedef {{menu_item_id: string, quantity: number, modifier_option_ids: string[], notes: string}} CartLineIn
 * @typedef {{id: string, name: string, price_cents: number}} Option
 * @typedef {{id: string, name: string, required: boolean, min: number, max: number | null, options: Option[]}} Group
 * @typedef {{id: string, name: string, price_cents: number, sold_out?: boolean, modifier_groups?: Group[]}} Item
 * @typedef {{itemId: string, chosen: string[], error: string}} Picking
 * @typedef {object} Alone
 * @property {boolean} on the customer chose to order alone (and no agent has joined)
 * @property {CartLineIn[]} lines the cart as the server last accepted it
 * @property {Picking | null} picking the item whose options are being chosen
 * @property {boolean} busy a cart or payment call is under way
 * @property {string} error what went wrong, in words ("" when nothing)
 */

/** @type {Alone} */
export const NOT_ALONE = Object.freeze({ on: false, lines: [], picking: null, busy: false, error: "" });

/**
 * Whether the waiting screen offers to order alone: nobody of the team is available, or the
 * estimate or the wait so far passes the owner's threshold (the queue's self_service_after_seconds).
 * @param {{status: string, created_at?: string | null, queue?: {agents_available: number,
 *   estimated_wait_seconds: number | null, self_service_after_seconds?: number} | null} | null} status
 * @param {number} nowMs
 */
export function offersSelfService(status, nowMs) {
  if (!status || status.status !== "pending" || !status.queue) return false;
  const { queue } = status;
  if (queue.agents_available === 0) return true;
  const threshold = queue.self_service_after_seconds;
  if (threshold === undefined || threshold === null) return false;
  if (queue.estimated_wait_seconds !== null && queue.estimated_wait_seconds >= threshold) return true;
  const waited = status.created_at ? (nowMs - Date.parse(status.created_at)) / 1000 : 0;
  return waited >= threshold;
}

/**
 * The request lines of an order answer that carries option ids (the kiosk's POST answer).
 * @param {{lines?: Array<{menu_item_id: string | null, quantity: number, notes?: string, modifier_option_ids?: string[]}>} | null} order
 * @returns {CartLineIn[]}
 */
export function linesOf(order) {
  return ((order && order.lines) || [])
    .filter((line) => line.menu_item_id)
    .map((line) => ({
      menu_item_id: /** @type {string} */ (line.menu_item_id),
      quantity: line.quantity,
      modifier_option_ids: [...(line.modifier_option_ids || [])],
      notes: line.notes || "",
    }));
}

const sameChoice = (/** @type {CartLineIn} */ a, /** @type {CartLineIn} */ b) =>
  a.menu_item_id === b.menu_item_id && [...a.modifier_option_ids].sort().join() === [...b.modifier_option_ids].sort().join();

/** The cart with one more of the item and options (the same choice adds to its line). @param {CartLineIn[]} lines @param {string} itemId @param {string[]} optionIds */
export function withItem(lines, itemId, optionIds) {
  const wanted = { menu_item_id: itemId, quantity: 1, modifier_option_ids: optionIds, notes: "" };
  const index = lines.findIndex((line) => sameChoice(line, wanted) && line.quantity < 99);
  if (index < 0) return [...lines, wanted];
  return lines.map((line, i) => (i === index ? { ...line, quantity: line.quantity + 1 } : line));
}

/** The cart with line `index` changed by `delta` (down to 0 removes it; at most 99). @param {CartLineIn[]} lines @param {number} index @param {number} delta */
export function withQuantity(lines, index, delta) {
  return lines
    .map((line, i) => (i === index ? { ...line, quantity: Math.min(99, line.quantity + delta) } : line))
    .filter((line) => line.quantity > 0);
}

/** The options chosen after tapping one: a one-choice group swaps, others toggle. @param {Item} item @param {string[]} chosen @param {string} optionId */
export function toggleOption(item, chosen, optionId) {
  const group = (item.modifier_groups || []).find((g) => g.options.some((o) => o.id === optionId));
  if (!group) return chosen;
  if (chosen.includes(optionId)) return chosen.filter((id) => id !== optionId);
  if (group.max === 1) {
    const others = new Set(group.options.map((o) => o.id));
    return [...chosen.filter((id) => !others.has(id)), optionId];
  }
  return [...chosen, optionId];
}

/** What is wrong with the choice, in words ("" when it may be added). @param {Item} item @param {string[]} chosen @param {string} locale */
export function choiceProblem(item, chosen, locale) {
  for (const group of item.modifier_groups || []) {
    const count = group.options.filter((o) => chosen.includes(o.id)).length;
    const min = group.required ? Math.max(1, group.min) : group.min;
    if (count < min) return t(locale, "alone.choose_at_least", { count: min, group: group.name });
    if (group.max && count > group.max) return t(locale, "alone.choose_at_most", { count: group.max, group: group.name });
  }
  return "";
}

/** A group's rule in words, beside its name. @param {Group} group @param {string} locale */
export function groupRule(group, locale) {
  const min = group.required ? Math.max(1, group.min) : group.min;
  if (group.max === 1) return min ? t(locale, "alone.rule_one") : t(locale, "alone.rule_optional_one");
  return min ? t(locale, "alone.rule_at_least", { count: min }) : t(locale, "alone.rule_optional");
}

/** An option's name and extra price. @param {Option} option @param {string | null} currency @param {string} locale */
export const optionLabel = (option, currency, locale) =>
  option.price_cents ? `${option.name} (+${money(option.price_cents, currency, locale)})` : option.name;

/**
 * What a refused cart or payment call says to the customer.
 * @param {{code?: string, status?: number, message?: string, details?: any}} error @param {string} locale
 */
export function aloneRefusal(error, locale) {
  switch (error.code) {
    case "SESSION_ALREADY_ACCEPTED":
      return t(locale, "alone.agent_took_over");
    case "VALIDATION_ERROR":
      return t(locale, "alone.cannot_add", { reason: failureReason(error, locale) });
    case "ORDER_EMPTY":
      return t(locale, "alone.empty");
    case "READER_OFFLINE": // the reader refused the payment: nothing was started, Pay tries again
      return t(locale, "alone.reader_offline");
    case "READER_BUSY":
      return t(locale, "alone.reader_busy");
    case "PROCESSOR_ACCOUNT_NOT_READY":
    case "PROCESSOR_NOT_CONFIGURED":
    case "PROCESSOR_UNAVAILABLE":
    case "PROCESSOR_ERROR":
      return t(locale, "alone.cannot_pay");
    default:
      if (error.status === 0) return t(locale, "alone.offline");
      return t(locale, "alone.failed", { reason: failureReason(error, locale) });
  }
}
