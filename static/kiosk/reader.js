// Paying on the kiosk's card reader (the payment's `method` is "card_present"): the tablet draws
// no card fields; it says what to do on the reader, the reader's name, and what became of the
// card, in the customer's language. The reader's state is the server's word: the status body's
// `payment.reader` (read again while paying on a reader, since the reader's reports reach the
// kiosk by no event), else the payment's own. Pure, unit-tested (tests/js/kiosk-reader.test.js).
import { gettext_noop, t } from "./messages.js";

/** @typedef {{label: string, status: string, action_status: string, failure_code?: string}} Reader */
/** @typedef {{reason: string, refused_at: string}} ReaderRefusal the status body's `reader_refusal` (ReaderRefused) */

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

// The processor's causes (its decline_code, else its code: the payment's and PaymentFailed's
// `failure_code`, the reader action's `failure_code`) that the customer can act on, each a
// sentence of the kiosk's own. Any other code is a plain "declined": the bank's reasons for
// refusing a card (lost, stolen, fraud, do not honor) are not the kiosk's to say.
/** @type {Record<string, string>} */
const CAUSES = {
  insufficient_funds: gettext_noop("reader.reason.insufficient_funds"),
  expired_card: gettext_noop("reader.reason.expired_card"),
  card_not_supported: gettext_noop("reader.reason.card_not_supported"),
  currency_not_supported: gettext_noop("reader.reason.card_not_supported"),
  transaction_not_allowed: gettext_noop("reader.reason.card_not_supported"),
  incorrect_pin: gettext_noop("reader.reason.incorrect_pin"),
  invalid_pin: gettext_noop("reader.reason.incorrect_pin"),
  pin_try_exceeded: gettext_noop("reader.reason.pin_tries"),
  card_velocity_exceeded: gettext_noop("reader.reason.limit_reached"),
  withdrawal_count_limit_exceeded: gettext_noop("reader.reason.limit_reached"),
};

/**
 * The cause of a decline the customer can act on, as a catalogue key (CAUSES), or "" for any
 * other code: one mapping for the reader's declines and the card fields' (words.js).
 * @param {string | null | undefined} code the processor's decline_code, else its code
 */
export const declineCause = (code) => (Object.hasOwn(CAUSES, code || "") ? CAUSES[code || ""] : "");

/** Causes that are no decline: the same card may be presented again. @type {Record<string, string>} */
const NOT_DECLINED = {
  processing_error: gettext_noop("reader.processing_error"),
  card_read_failed: gettext_noop("reader.read_failed"),
};

/**
 * What the customer reads after the card on the reader was not taken, from the processor's code
 * (PaymentFailed's `failure_code`, the payment read's, or the reader action's): why, when it is a
 * cause the customer can act on, and that another card may be tried on the reader (the same
 * payment went back to it). A processing fault or a card not read is no decline: the same card
 * may be presented again.
 * @param {string | null | undefined} code @param {string} [locale]
 */
export function readerRefusal(code, locale = "en-US") {
  const key = code || "";
  if (Object.hasOwn(NOT_DECLINED, key)) return t(locale, NOT_DECLINED[key]);
  const cause = declineCause(key);
  if (cause) return t(locale, "reader.declined_because", { reason: t(locale, cause) });
  return t(locale, "reader.declined");
}

/**
 * The note above card fields that stand in for the kiosk's card reader (the payment body's
 * `instead_of_reader`: the reader could not take the payment and the owner allows the card
 * fields), else "". @param {{method?: string, instead_of_reader?: boolean} | null | undefined} payment @param {string} [locale]
 */
export function cardFieldsInsteadNote(payment, locale = "en-US") {
  return payment && payment.method !== "card_present" && payment.instead_of_reader ? t(locale, "reader.fields_instead") : "";
}

/**
 * The reader's part of the payment box.
 *   instruction: "Tap, insert or swipe your card on the reader" while the reader waits for a card
 *     (also after a decline, once the payment is back on it), else empty;
 *   label: which reader;
 *   note: an offline reader, or one not ready for this payment yet (busy, or being handed the
 *     payment again), in plain words, a card it could not read (its action's failure_code
 *     card_read_failed: no payment failed, so no PaymentFailed says it), or "confirming" once it
 *     took the card; empty while it waits for the card.
 * @param {Reader | null} reader @param {string} [locale]
 * @returns {{state: "waiting" | "confirming" | "offline" | "not_ready" | "not_read", instruction: string, label: string, note: string}}
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
  if (reader.action_status === "failed" && reader.failure_code === "card_read_failed") {
    return { state: "not_read", instruction: "", label, note: readerRefusal(reader.failure_code, locale) };
  }
  return { state: "not_ready", instruction: "", label, note: t(locale, "reader.not_ready") };
}

/**
 * Whether to offer "Pay with the card fields instead": only where the owner allows it (the
 * payment's `card_fields_fallback`) and only while the reader cannot take the card (offline, or
 * not holding this payment).
 * @param {{card_fields_fallback?: boolean} | null | undefined} payment @param {Reader | null} reader
 */
export function offersCardFields(payment, reader) {
  if (!payment || !payment.card_fields_fallback || !reader) return false;
  return ["offline", "not_ready"].includes(readerView(reader).state);
}

/**
 * What the customer reads while the reader refused the agent's send to payment (the status body's
 * `reader_refusal`, told at once by ReaderRefused): what happened and what comes next (the agent
 * will send it again); "" when there is none. Said outside the payment box, which is not open then.
 * @param {ReaderRefusal | null | undefined} refusal @param {string | null | undefined} agentName @param {string} [locale]
 */
export function agentSendRefused(refusal, agentName, locale = "en-US") {
  if (!refusal) return "";
  const name = agentName || t(locale, "session.someone");
  // "busy": another payment is on it; anything else (offline, a reason added later): not answering.
  const key = refusal.reason === "busy" ? gettext_noop("reader.agent_retrying_busy") : gettext_noop("reader.agent_retrying_offline");
  return t(locale, key, { name });
}
