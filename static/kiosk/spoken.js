// What accessible mode says aloud, in the customer's language: each screen as it appears, a menu
// item with its price and allergens, the cart with its total, the payment's instructions. Made
// from the store and the kiosk's catalogue (messages.js), free of the DOM; unit-tested
// (tests/js/kiosk-access.test.js). speech.js speaks it.
import { money } from "../common/format.js";
import { cartView } from "./cart.js";
import { gettext_noop, t } from "./messages.js";
import { currentReader, onReader, readerView } from "./reader.js";
import { queueWords } from "./words.js";

/** @typedef {import("./state.js").KioskState} KioskState */

/** Sentences joined, the empty ones left out. @param {Array<string | null | undefined | false>} parts */
export const sentences = (parts) =>
  parts
    .filter(Boolean)
    .map((part) => String(part).trim().replace(/[.:!?…]?$/, (end) => end || "."))
    .join(" ");

/** A menu item as menuView draws it. @param {{name: string, price: string, allergens: string, soldOut: boolean, description?: string}} item @param {string} locale */
export const itemWords = (item, locale) =>
  sentences([t(locale, "access.item", { name: item.name, price: item.price }), item.allergens, item.soldOut && t(locale, "menu.sold_out")]);

/** One cart line: its quantity, name and price, then its options. @param {import("./cart.js").CartLine} line @param {string} locale */
const lineWords = (line, locale) =>
  t(locale, "access.cart_line", { quantity: line.quantity.replace(/\s*×$/, ""), name: line.name, price: line.price }) + (line.modifiers ? ` (${line.modifiers})` : "");

/** The cart line by line, then its total. @param {import("./cart.js").Order | null} order @param {string} locale */
export function cartWords(order, locale) {
  const cart = cartView(order, locale);
  if (cart.empty) return t(locale, "access.cart_empty");
  const lines = cart.lines.map((line) => lineWords(line, locale));
  return sentences([t(locale, "access.cart", { lines: lines.join("; ") }), t(locale, "access.total", { total: cart.total })]);
}

/** A line of the thank-you screen's list, with its place in it ("" past its end). @param {KioskState} state @param {number} index 0-based */
export function thanksLineWords({ thanks, locale }, index) {
  const { lines } = cartView((thanks && thanks.order) || null, locale);
  const line = lines[index];
  return line ? sentences([t(locale, "access.line_of", { number: index + 1, count: lines.length, line: lineWords(line, locale) })]) : "";
}

/** The payment step: the amount, then how to pay (on the reader, or with the card fields). @param {KioskState} state */
export function paymentWords({ payment, status, locale }) {
  if (!payment) return "";
  const amount = t(locale, "pay.amount", { amount: money(payment.amount_cents, payment.currency, locale) });
  if (onReader(payment)) {
    const view = readerView(currentReader(payment, status), locale);
    return sentences([amount, view.instruction && t(locale, "access.reader_where", { instruction: view.instruction }), view.note]);
  }
  const how = payment.mode === "demo" ? gettext_noop("access.pay_demo") : gettext_noop("access.pay_card");
  return sentences([amount, t(locale, how)]);
}

/** What the screen says as it appears. @param {KioskState} state */
export function screenWords(state) {
  const { screen, locale, profile } = state;
  switch (screen) {
    case "attract":
      return sentences([profile && profile.business.name, t(locale, "access.attract"), t(locale, "access.attract_chat")]);
    case "waiting": {
      const place = queueWords(state.status && state.status.status === "pending" ? state.status.queue : null, locale).place;
      return sentences([t(locale, "waiting.title"), place, state.aloneOffered && t(locale, "access.waiting_alone"), t(locale, "access.waiting_cancel")]);
    }
    case "session": {
      const agent = state.status && state.status.agent;
      const who = state.alone.on ? sentences([t(locale, "alone.title"), t(locale, "alone.note")]) : agent ? sentences([t(locale, "session.talking_to"), agent.name]) : "";
      return sentences([who, cartWords(state.order, locale), state.payment ? paymentWords(state) : t(locale, "access.session_keys")]);
    }
    case "thanks": {
      const { thanks } = state;
      if (!thanks) return t(locale, "thanks.title");
      const paid = thanks.totalCents ? t(locale, "thanks.paid", { amount: money(thanks.totalCents, thanks.currency, locale) }) : "";
      return sentences([t(locale, "thanks.title"), `${t(locale, "thanks.number_is")} ${thanks.orderNumber}`, paid]);
    }
    case "ended":
      return state.ended ? sentences([state.ended.title, state.ended.message]) : "";
    default:
      return "";
  }
}

/** What the customer asked to hear again ("repeat"): the screen, and what has the focus. @param {KioskState} state @param {string} focused */
export const repeatWords = (state, focused) => sentences([screenWords(state), focused]);
