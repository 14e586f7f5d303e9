// What became of the customer's card, in the agent's words: the agent's session read carries the
// processor's cause (`payment.failure_code`), and the dashboard says what happened rather than
// "declined" for every failure. Pure, unit-tested (tests/js/agent-payment-words.test.js);
// cart-state.js's paymentView uses it.

import { interpolate, pgettext } from "../common/gettext.js";

/**
 * @typedef {{status: string, failure_code?: string, failure_message?: string, method?: string,
 *   reader?: {label: string, status: string, action_status: string} | null}} Payment
 */

const afterDecline = () => pgettext("agent", "The customer may try another card, or cancel the payment to change the order.");

/** A decline's cause, as the agent can tell the customer (said when needed). @type {Record<string, () => string>} */
const DECLINE_CAUSES = {
  insufficient_funds: () => pgettext("agent", "the card has insufficient funds"),
  expired_card: () => pgettext("agent", "the card has expired"),
  incorrect_cvc: () => pgettext("agent", "the security code (CVC) is wrong"),
  invalid_cvc: () => pgettext("agent", "the security code (CVC) is wrong"),
  incorrect_number: () => pgettext("agent", "the card number is wrong"),
  invalid_number: () => pgettext("agent", "the card number is wrong"),
  invalid_expiry_month: () => pgettext("agent", "the expiry date is wrong"),
  invalid_expiry_year: () => pgettext("agent", "the expiry date is wrong"),
  incomplete_number: () => pgettext("agent", "the card details were incomplete"),
  incomplete_cvc: () => pgettext("agent", "the card details were incomplete"),
  incomplete_expiry: () => pgettext("agent", "the card details were incomplete"),
  card_velocity_exceeded: () => pgettext("agent", "the card's spending limit was reached"),
  withdrawal_count_limit_exceeded: () => pgettext("agent", "the card's spending limit was reached"),
  lost_card: () => pgettext("agent", "the bank refused the card"),
  stolen_card: () => pgettext("agent", "the bank refused the card"),
  pickup_card: () => pgettext("agent", "the bank refused the card"),
  fraudulent: () => pgettext("agent", "the bank refused the card"),
  do_not_honor: () => pgettext("agent", "the bank refused the card without saying why"),
  generic_decline: () => pgettext("agent", "the bank refused the card without saying why"),
  card_not_supported: () => pgettext("agent", "the card does not support this purchase"),
  currency_not_supported: () => pgettext("agent", "the card does not support this currency"),
};

/**
 * The payment box after a failed card: "error" for a passing fault (the same card may be tried
 * again), "declined" otherwise, each with its cause in words.
 * @param {Payment | null | undefined} payment
 * @returns {{state: "declined" | "error", text: string}}
 */
export function failureView(payment) {
  const code = (payment && payment.failure_code) || "";
  if (code === "processing_error") {
    return {
      state: "error",
      text: pgettext(
        "agent",
        "The card could not be processed: a fault at the card processor, not a decline. The customer may try the same card again, or cancel the payment to change the order.",
      ),
    };
  }
  const cause = DECLINE_CAUSES[code];
  if (cause) return { state: "declined", text: interpolate(pgettext("agent", "Card declined: %(cause)s. %(after)s"), { cause: cause(), after: afterDecline() }) };
  const message = (payment && payment.failure_message) || "";
  const text =
    message && !/^your card was declined\.?$/i.test(message)
      ? interpolate(pgettext("agent", "Card declined (the processor says: %(why)s). %(after)s"), { why: message.replace(/\.$/, ""), after: afterDecline() })
      : interpolate(pgettext("agent", "Card declined. %(after)s"), { after: afterDecline() });
  return { state: "declined", text };
}

/** Whether the customer pays on the kiosk's card reader. @param {Payment | null | undefined} payment */
export const onReader = (payment) => Boolean(payment && payment.method === "card_present");

/**
 * The payment box while the customer pays on the kiosk's card reader: waiting for the card (or an
 * offline reader), and after a failed card its cause and that another card may be tried on the
 * reader (the same payment went back to it).
 * @param {Payment} payment @param {boolean} failed the order failed (the last card was not taken)
 * @returns {{state: "waiting" | "declined" | "error", text: string}}
 */
export function readerView(payment, failed) {
  const isOffline = Boolean(payment.reader && payment.reader.status === "offline");
  const offlineWords = () => pgettext("agent", "The card reader is offline: the customer cannot pay until it is back.");
  const offline = isOffline ? ` ${offlineWords()}` : "";
  if (!failed) return { state: "waiting", text: isOffline ? offlineWords() : pgettext("agent", "Waiting for the card on the reader") };
  const code = payment.failure_code || "";
  if (code === "processing_error") {
    return { state: "error", text: `${pgettext("agent", "The card could not be processed (not a decline): the customer may try again on the reader.")}${offline}` };
  }
  const cause = DECLINE_CAUSES[code];
  const message = (payment.failure_message || "").replace(/\.$/, "");
  const reason = cause ? cause() : message && !/^your card was declined$/i.test(message) ? message : pgettext("agent", "the bank refused the card without saying why");
  return { state: "declined", text: `${interpolate(pgettext("agent", "Declined: %(reason)s, the customer may try another card on the reader."), { reason })}${offline}` };
}

/**
 * Why send to payment was refused, in the agent's words. The kiosk's card reader refusing the
 * payment (offline, or busy with another payment) changed nothing: the order is kept and the agent
 * sends it again (where the owner allows the card fields, the send pays with them instead and is
 * not refused). Anything else: the service's own words.
 * @param {{code?: string, message?: string}} error
 */
export function sendRefusal(error) {
  if (error.code === "READER_OFFLINE") {
    return pgettext("agent", "The card reader is offline: ask the customer to wait while it is switched on and connected, then send to payment again. The order is kept.");
  }
  if (error.code === "READER_BUSY") {
    return pgettext("agent", "The card reader is busy with another payment: send to payment again in a moment. The order is kept.");
  }
  return interpolate(pgettext("agent", "Payment could not start: %(why)s"), { why: error.message || "" });
}
