// The payment step behind one small adapter: `paymentMethodFor(payment)` gives an object with
// mount(container) (draw the card fields), pay() (hand the card to the processor; resolves when
// it was accepted for processing, rejects with a CardDeclined when the processor says no at once)
// and unmount(). The outcome itself always comes from the service (PaymentSucceeded /
// PaymentFailed, or the status when polling), never from the browser's word alone.
//   - live: the processor's own browser library, loaded from the processor at run time (as
//     processors require), against the owner's connected account (`processor_account`);
//   - demo: the demo processor served by the project (no money moves).
import { config, url } from "./api.js";
import { el } from "./ui.js";
import { loadScript } from "./vendor.js";

export class CardDeclined extends Error {}

// The demo processor's test cards (docs/kiosk-and-agent.md).
export const DEMO_CARDS = [
  { number: "4242 4242 4242 4242", outcome: "succeeds" },
  { number: "4000 0000 0000 0002", outcome: "is declined" },
];

class DemoCardPayment {
  constructor(payment) {
    this.payment = payment;
    this.mode = "demo";
  }

  mount(container) {
    this.input = el("input", {
      id: "card-number",
      name: "card_number",
      inputmode: "numeric",
      autocomplete: "off",
      maxlength: "23",
      placeholder: "4242 4242 4242 4242",
    });
    container.replaceChildren(
      el("label", { for: "card-number", text: "Card number" }),
      this.input,
      el(
        "ul",
        { class: "test-cards note" },
        DEMO_CARDS.map((card) => el("li", {}, el("code", { text: card.number }), ` ${card.outcome}`)),
      ),
    );
  }

  async pay() {
    const number = this.input.value.replace(/\D/g, "");
    if (number.length < 12) throw new CardDeclined("Enter the card number.");
    const confirmUrl = this.payment.confirm_url || "/demo-processor/confirm";
    const response = await fetch(url(confirmUrl), {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ client_secret: this.payment.client_secret, card_number: number }),
    }).catch(() => {
      throw new Error("The demo processor cannot be reached.");
    });
    const body = await response.json().catch(() => ({}));
    if (response.status === 402 || (body.error && body.error.decline_code)) {
      throw new CardDeclined((body.error && body.error.message) || "Card declined.");
    }
    if (!response.ok) throw new Error((body.error && body.error.message) || `The demo processor answered ${response.status}.`);
    return body;
  }

  unmount() {
    this.input = null;
  }
}

class ProcessorPayment {
  constructor(payment) {
    this.payment = payment;
    this.mode = "live";
  }

  async mount(container) {
    const key = this.payment.publishable_key || config.processorPublishableKey;
    if (!key) throw new Error("Card payments are not set up on this kiosk (no publishable key).");
    const Stripe = await loadScript(config.processorJsUrl, "Stripe");
    this.stripe = Stripe(key, { stripeAccount: this.payment.processor_account });
    this.card = this.stripe.elements().create("card", { style: { base: { fontSize: "22px" } } });
    const slot = el("div", { id: "card-element", class: "card-element" });
    container.replaceChildren(el("label", { text: "Card" }), slot);
    this.card.mount(slot);
  }

  async pay() {
    const result = await this.stripe.confirmCardPayment(this.payment.client_secret, {
      payment_method: { card: this.card },
    });
    if (result.error) {
      if (result.error.type === "card_error") throw new CardDeclined(result.error.message);
      throw new Error(result.error.message);
    }
    return result.paymentIntent;
  }

  unmount() {
    if (this.card) this.card.destroy();
    this.card = null;
  }
}

export function paymentMethodFor(payment) {
  return payment.processor_mode === "demo" ? new DemoCardPayment(payment) : new ProcessorPayment(payment);
}
