// What became of the customer's card, in the agent's words: the agent's session read carries the
// processor's cause (`payment.failure_code`), and the dashboard says what happened rather than
// "declined" for every failure. Pure, unit-tested (tests/js/agent-payment-words.test.js);
// cart-state.js's paymentView uses it.

import { interpolate, pgettext } from "../common/gettext.js";

/** @typedef {{status: string, failure_code?: string, failure_message?: string}} Payment */

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
