// The payment step behind one small adapter: `paymentMethodFor(payment)` gives an object with
// mount(container) (draw the card fields), pay() (hand the card to the processor; resolves when
// it was accepted for processing, rejects with a CardRefused when the card was not taken at once:
// its `code` is the processor's (a decline's decline_code, else card_declined, processing_error,
// incorrect_number) or
// "incomplete" for an empty card field, and words.js says each in its own words)
// and unmount(). The outcome itself always comes from the service (PaymentSucceeded /
// PaymentFailed, or the status when polling), never from the browser's word alone.
//   - live: the processor's own browser library, loaded from the processor at run time (as
//     processors require), against the owner's connected account (`processor_account`);
//   - demo: the demo processor served by the project (no money moves).
import { el } from "../common/ui.js";
import { url } from "./api.js";
import { gettext_noop, t } from "./messages.js";
import { config } from "./settings.js";
import { loadScript } from "./vendor.js";

export class CardRefused extends Error {
  /** @param {string} message the processor's words @param {string} code */
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

// The demo processor's test cards (docs/kiosk-and-agent.md); each outcome is a messages.js key.
export const DEMO_CARDS = [
  { number: "4242 4242 4242 4242", outcome: gettext_noop("card.demo.succeeds") },
  { number: "4000 0000 0000 0002", outcome: gettext_noop("card.demo.declined") },
  { number: "4000 0000 0000 9995", outcome: gettext_noop("card.demo.insufficient_funds") },
  { number: "4000 0000 0000 0119", outcome: gettext_noop("card.demo.processing_error") },
];

/**
 * GET /sessions/{id}/payment, or PaymentRequested: what the payment step needs.
 * @typedef {object} PaymentBody
 * @property {string} client_secret
 * @property {number} amount_cents
 * @property {string} currency
 * @property {string} [status] "failed" once the service says so
 * @property {string | null} [failure_message]
 * @property {string | null} [failure_code] the processor's cause of the last failure ("" unless failed)
 * @property {string} [processor_account] the owner's connected account (live)
 * @property {Processor} [processor]
 * @property {"card_present" | "card"} [method] card_present: the card is taken on the kiosk's reader
 * @property {import("./reader.js").Reader | null} [reader] the reader it waits on (card_present)
 * @property {boolean} [card_fields_fallback] the owner allows the card fields while the reader cannot take the card
 * @property {boolean} [instead_of_reader] card: these card fields stand in for the kiosk's reader, which could not take the payment
 * @typedef {{mode: string, publishable_key?: string, confirm_url?: string, notice?: string}} Processor
 */

/** A text in the kiosk's language that a later change of language redraws (data-i18n, views.js). @param {string} locale @param {string} key */
const words = (locale, key) => ({ "data-i18n": key, text: t(locale, key) });

class DemoCardPayment {
  /** @param {PaymentBody} payment @param {Processor} processor */
  constructor(payment, processor) {
    this.payment = payment;
    this.processor = processor;
    this.mode = /** @type {const} */ ("demo");
    this.locale = "";
    /** @type {HTMLInputElement | null} */
    this.input = null;
  }

  /** @param {HTMLElement} container @param {string} locale */
  mount(container, locale) {
    this.locale = locale;
    const input = /** @type {HTMLInputElement} */ (el("input", {
      id: "card-number",
      name: "card_number",
      inputmode: "numeric",
      autocomplete: "off",
      maxlength: "23",
    }));
    this.input = input;
    // Demo cards are one tap away: typing 16 digits on a tablet is no way to try a demo.
    const fill = (/** @type {string} */ number) => () => {
      input.value = number;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    container.replaceChildren(
      el("label", { for: "card-number", ...words(locale, "card.number") }),
      input,
      el(
        "ul",
        { class: "test-cards note", "aria-label": t(locale, "card.demo_cards"), "data-i18n-label": "card.demo_cards" },
        DEMO_CARDS.map((card) =>
          el(
            "li",
            {},
            el("button", { type: "button", class: "test-card", onclick: fill(card.number), text: card.number }),
            " ",
            el("span", { class: "outcome", ...words(locale, card.outcome) }),
          ),
        ),
      ),
    );
  }

  async pay() {
    if (!this.input) throw new Error("the card field is not drawn"); // mount() comes first
    const number = this.input.value.replace(/\D/g, "");
    if (!number) throw new CardRefused(t(this.locale, "card.enter"), "incomplete");
    const confirmUrl = this.processor.confirm_url;
    if (!confirmUrl) throw new Error("the demo processor gave no confirm_url");
    const response = await fetch(url(confirmUrl), {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ client_secret: this.payment.client_secret, card_number: number }),
    }).catch(() => {
      throw new Error(t(this.locale, "card.demo_unreachable"));
    });
    const body = await response.json().catch(() => ({}));
    const error = body.error || {};
    if (response.status === 402) throw new CardRefused(error.message || "Card declined.", error.decline_code || error.code || "card_declined");
    if (response.status === 422 && error.param === "card_number") throw new CardRefused(error.message, error.code || "incorrect_number");
    if (!response.ok) throw new Error((body.error && body.error.message) || t(this.locale, "error.answered", { status: response.status }));
    return body;
  }

  clear() {
    if (this.input) this.input.value = "";
  }

  unmount() {
    this.input = null;
  }
}

class ProcessorPayment {
  /** @param {PaymentBody} payment @param {Processor} processor */
  constructor(payment, processor) {
    this.payment = payment;
    this.processor = processor;
    this.mode = /** @type {const} */ ("live");
    /** @type {StripeClient | null} */
    this.stripe = null;
    /** @type {StripeCardElement | null} */
    this.card = null;
  }

  /** @param {HTMLElement} container @param {string} locale */
  async mount(container, locale) {
    const key = this.processor.publishable_key || config.processorPublishableKey;
    if (!key) throw new Error(t(locale, "card.not_set_up")); // no publishable key
    const Stripe = await loadScript(config.processorJsUrl, "Stripe");
    const stripe = Stripe(key, { stripeAccount: this.payment.processor_account });
    const card = stripe.elements().create("card", { style: { base: { fontSize: "22px" } } });
    this.stripe = stripe;
    this.card = card;
    const slot = el("div", { id: "card-element", class: "card-element" });
    container.replaceChildren(el("label", words(locale, "card.label")), slot);
    card.mount(slot);
  }

  async pay() {
    if (!this.stripe || !this.card) throw new Error("the card field is not drawn"); // mount() comes first
    const result = await this.stripe.confirmCardPayment(this.payment.client_secret, {
      payment_method: { card: this.card },
    });
    if (result.error) {
      if (result.error.type === "card_error") {
        throw new CardRefused(result.error.message, result.error.decline_code || result.error.code || "card_declined");
      }
      throw new Error(result.error.message);
    }
    return result.paymentIntent;
  }

  clear() {
    // The processor's own card field says what went wrong and keeps what was typed.
  }

  unmount() {
    if (this.card) this.card.destroy();
    this.card = null;
  }
}

// The card is taken on the kiosk's card reader: nothing to draw or send here (the service hands
// the payment to the reader; views.js says what to do on it, reader.js), no Pay button.
class ReaderPayment {
  /** @param {Processor} processor */
  constructor(processor) {
    this.mode = processor.mode === "demo" ? /** @type {const} */ ("demo") : /** @type {const} */ ("live");
  }

  /** @param {HTMLElement} container */
  mount(container) {
    container.replaceChildren();
  }

  async pay() {
    throw new Error("the card is taken on the reader"); // there is no Pay button to call this
  }

  clear() {}

  unmount() {}
}

// `payment` is GET /sessions/{id}/payment or PaymentRequested: `processor` {mode, publishable_key,
// confirm_url, notice} says which processor takes the card (the kiosk says the demo notice in its
// own words: pay.demo_note).
/** @param {PaymentBody} payment */
export function paymentMethodFor(payment) {
  const processor = payment.processor || { mode: "live" };
  if (payment.method === "card_present") return new ReaderPayment(processor);
  return processor.mode === "demo" ? new DemoCardPayment(payment, processor) : new ProcessorPayment(payment, processor);
}
