// Paying on the kiosk's card reader (the payment's `method` is "card_present"): the tablet draws
// no card fields; it says what to do on the reader, the reader's name, and what became of the
// card, in the customer's language. The reader's state is the server's word: the status body's
// `payment.reader` (read again while paying on a reader, since the reader's reports reach the
// kiosk by no event), else the payment's own. Pure, unit-tested (tests/js/kiosk-reader.test.js).
import { gettext_noop, t } from "./messages.js";

/** @typedef {{label: string, status: string, action_status: string}} Reader */

/** Whether the payment waits on the kiosk's card reader. @param {{method?: string} | null | undefined} payment */
export const onReader = (payment) => Boolean(payment && payment.method === "card_present");

/**
 * The reader as last reported: the status body's (fresher: it is read again while paying) over the
 * payment's own (as it was when the payment was asked for).
 * @param {{reader?: Reader | null} | null | undefined} payment
 * @param {{payment?: {reader?: Reader | null} | null} | null | undefined} status
 * @returns {Reader | null}
 */
export function currentReader(payment, status) {
  const reported = status && status.payment ? status.payment.reader : null;
  return reported || (payment && payment.reader) || null;
}

// The processor's sentences for a card it did not take (its decline messages are fixed English
// sentences; the kiosk's payment body carries no code), each a sentence of the kiosk's own.
/** @type {Array<[RegExp, string]>} */
const CAUSES = [
  [/insufficient funds/i, gettext_noop("reader.reason.insufficient_funds")],
  [/expired/i, gettext_noop("reader.reason.expired_card")],
  [/does not support/i, gettext_noop("reader.reason.card_not_supported")],
];

/**
 * What the customer reads after the card on the reader was not taken (PaymentFailed's message, or
 * the payment read's failure_message): why, when the processor said a known cause, and that
 * another card may be tried on the reader (the same payment went back to it). A processing fault
 * is no decline: the same card may be tried again.
 * @param {string | null | undefined} message @param {string} [locale]
 */
export function readerRefusal(message, locale = "en-US") {
  const text = message || "";
  if (/error occurred while processing|processing error/i.test(text)) return t(locale, "reader.processing_error");
  const known = CAUSES.find(([pattern]) => pattern.test(text));
  if (known) return t(locale, "reader.declined_because", { reason: t(locale, known[1]) });
  return t(locale, "reader.declined");
}

/**
 * The reader's part of the payment box.
 *   instruction: "Tap, insert or swipe your card on the reader" while the reader waits for a card
 *     (also after a decline, once the payment is back on it), else empty;
 *   label: which reader;
 *   note: an offline reader, or one not ready for this payment yet (busy, or being handed the
 *     payment again), in plain words, or "confirming" once it took the card; empty while it
 *     waits for the card.
 * @param {Reader | null} reader @param {string} [locale]
 * @returns {{state: "waiting" | "confirming" | "offline" | "not_ready", instruction: string, label: string, note: string}}
 */
export function readerView(reader, locale = "en-US") {
  const label = reader && reader.label ? t(locale, "reader.name", { label: reader.label }) : "";
  if (reader && reader.status === "offline") {
    return { state: "offline", instruction: "", label, note: t(locale, "reader.offline") };
  }
  if (!reader || reader.action_status === "in_progress") {
    return { state: "waiting", instruction: t(locale, "reader.instruction"), label, note: "" };
  }
  // The reader took the card; the order is confirmed by the service's word (PaymentSucceeded).
  if (reader.action_status === "succeeded") return { state: "confirming", instruction: "", label, note: t(locale, "pay.confirming") };
  return { state: "not_ready", instruction: "", label, note: t(locale, "reader.not_ready") };
}
