// The live cart as the customer reads it: exactly what the server says the order is
// (OrderUpdated, or GET .../order after a reconnect), in the customer's words where the menu
// translates them (each line's customer_words). Pure, unit-tested (tests/js/kiosk-cart.test.js);
// views.js draws it.
import { money } from "../common/format.js";
import { modifierText } from "../common/modifier-text.js";

/**
 * @typedef {Array<{group: string, value: string}>} Modifiers
 * @typedef {{id: string, name: string, quantity: number, unit_price_cents: number, notes?: string,
 *   modifiers: Modifiers, customer_words?: {name: string, modifiers: Modifiers} | null}} OrderLine
 * @typedef {{lines?: OrderLine[], currency?: string, subtotal_cents?: number, tax_cents?: number,
 *   total_cents?: number, updated_at?: string, status?: string, order_number?: string | null,
 *   receipt_card_lines?: string[]}} Order receipt_card_lines: how a paid order was paid, in the receipt's words
 * @typedef {{id: string, quantity: string, name: string, price: string, modifiers: string, notes: string}} CartLine
 * @typedef {{lines: CartLine[], empty: boolean, subtotal: string, tax: string, total: string, updatedAt: string}} CartView
 */

/**
 * @param {Order | null} order
 * @param {string} [locale] undefined: the browser's
 * @returns {CartView}
 */
export function cartView(order, locale = undefined) {
  const lines = (order && order.lines) || [];
  const currency = (order && order.currency) || "USD";
  const amount = (/** @type {number | undefined} */ cents) => (lines.length ? money(cents || 0, currency, locale) : "–");
  return {
    lines: lines.map((line) => ({
      id: line.id,
      quantity: `${line.quantity} ×`,
      name: (line.customer_words || line).name,
      price: money(line.unit_price_cents * line.quantity, currency, locale),
      modifiers: modifierText((line.customer_words || line).modifiers),
      notes: line.notes || "",
    })),
    empty: lines.length === 0,
    subtotal: amount(order ? order.subtotal_cents : 0),
    tax: amount(order ? order.tax_cents : 0),
    total: amount(order ? order.total_cents : 0),
    updatedAt: (order && order.updated_at) || "",
  };
}
