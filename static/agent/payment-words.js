// What became of the customer's card, in the agent's words: the agent's session read carries the
// processor's cause (`payment.failure_code`), and the dashboard says what happened rather than
// "declined" for every failure. Pure, unit-tested (tests/js/agent-payment-words.test.js);
// cart-state.js's paymentView uses it.

/** @typedef {{status: string, failure_code?: string, failure_message?: string}} Payment */

const AFTER_DECLINE = "The customer may try another card, or cancel the payment to change the order.";

/** A decline's cause, as the agent can tell the customer. @type {Record<string, string>} */
const DECLINE_CAUSES = {
  insufficient_funds: "the card has insufficient funds",
  expired_card: "the card has expired",
  incorrect_cvc: "the security code (CVC) is wrong",
  invalid_cvc: "the security code (CVC) is wrong",
  incorrect_number: "the card number is wrong",
  invalid_number: "the card number is wrong",
  invalid_expiry_month: "the expiry date is wrong",
  invalid_expiry_year: "the expiry date is wrong",
  incomplete_number: "the card details were incomplete",
  incomplete_cvc: "the card details were incomplete",
  incomplete_expiry: "the card details were incomplete",
  card_velocity_exceeded: "the card's spending limit was reached",
  withdrawal_count_limit_exceeded: "the card's spending limit was reached",
  lost_card: "the bank refused the card",
  stolen_card: "the bank refused the card",
  pickup_card: "the bank refused the card",
  fraudulent: "the bank refused the card",
  do_not_honor: "the bank refused the card without saying why",
  generic_decline: "the bank refused the card without saying why",
  card_not_supported: "the card does not support this purchase",
  currency_not_supported: "the card does not support this currency",
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
      text: "The card could not be processed: a fault at the card processor, not a decline. The customer may try the same card again, or cancel the payment to change the order.",
    };
  }
  const cause = DECLINE_CAUSES[code];
  if (cause) return { state: "declined", text: `Card declined: ${cause}. ${AFTER_DECLINE}` };
  const message = (payment && payment.failure_message) || "";
  const said = message && !/^your card was declined\.?$/i.test(message) ? ` (the processor says: ${message.replace(/\.$/, "")})` : "";
  return { state: "declined", text: `Card declined${said}. ${AFTER_DECLINE}` };
}
