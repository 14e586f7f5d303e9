// One customer's session, from start to thank-you (or to a polite end): waiting for an agent,
// the agent and the video, the live cart, and the payment step. Real-time events drive it while
// the kiosk channel is live; otherwise GET poll_url runs every `pollSeconds` (spec rule 1) and
// says the same. After a reconnect the status and the order are read again.
import { ApiError, config, get, post } from "./api.js";
import { renderCart } from "./cart.js";
import { device } from "./device.js";
import { CardDeclined, paymentMethodFor } from "./payment.js";
import { $, announce, logFailure, money, showError, showScreen } from "./ui.js";
import { KioskVideo } from "./video.js";

const OPEN = new Set(["pending", "active", "payment"]);

// What the customer reads when the session ends without a payment (by end_reason).
const ENDINGS = {
  timed_out: ["Sorry, nobody could answer", "All our team members are busy right now. Please try again in a few minutes."],
  customer_abandoned: ["Thank you for visiting", "Your session has ended. We hope to see you again soon."],
  refused_service: ["We are sorry", "We cannot take this order here. Please ask a member of staff for help."],
  technical_issue: ["Sorry, something went wrong", "We had a technical problem. Please start again, or ask a member of staff."],
  completed: ["Thank you for visiting", "Your session has ended."],
};

export class KioskSession {
  constructor({ onFinished }) {
    this.onFinished = onFinished;
    this.video = new KioskVideo();
    this.reset();
  }

  reset() {
    this.id = null;
    this.status = null;
    this.pollUrl = null;
    this.payment = null;
    this.method = null;
    this.live = false;
    window.clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  get open() {
    return this.id !== null && OPEN.has(this.status);
  }

  async start(locale) {
    let started;
    try {
      started = await post("/api/public/sessions/start", { device_id: device.id, customer_locale: locale });
    } catch (error) {
      if (error.code === "SESSION_IN_PROGRESS" && error.details.session_id) return this.resume(error.details.session_id);
      throw error;
    }
    this.id = started.session_id;
    this.pollUrl = started.poll_url;
    this.status = null;
    this.applyStatus(started);
    this.updatePolling();
  }

  async resume(id) {
    this.id = id;
    this.pollUrl = `/api/public/sessions/${id}/status`;
    await this.refresh();
    this.updatePolling();
  }

  // The channel went live or dropped; after a reconnect anything missed is read again.
  setLive(live, reconnected) {
    this.live = live;
    this.updatePolling();
    if (this.open && (reconnected || live)) this.refresh();
  }

  updatePolling() {
    const wanted = this.open && !this.live;
    if (wanted && !this.pollTimer) {
      this.pollTimer = window.setInterval(() => this.refresh(), config.pollSeconds * 1000);
    } else if (!wanted && this.pollTimer) {
      window.clearInterval(this.pollTimer);
      this.pollTimer = null;
    }
  }

  async refresh() {
    const id = this.id;
    if (!id) return;
    try {
      const status = await get(this.pollUrl);
      if (id !== this.id) return;
      if (status.status !== "pending") this.showOrder(await get(`/api/public/sessions/${id}/order`));
      if (status.status === "payment") await this.readPayment();
      this.applyStatus(status);
    } catch (error) {
      // 401 goes back to pairing and a lost network shows the banner (main.js); else next round.
      logFailure("reading the session", error);
    }
  }

  async readPayment() {
    const payment = await get(`/api/public/sessions/${this.id}/payment`);
    if (!this.payment || this.payment.client_secret !== payment.client_secret) this.enterPayment(payment);
    if (payment.status === "failed" && this.payment.state !== "declined") this.declined(payment.failure_message);
  }

  onEvent(name, data) {
    if (!this.id || (data.session_id && data.session_id !== this.id)) return;
    if (name === "SessionStatusChanged") this.applyStatus(data);
    else if (name === "OrderUpdated") this.showOrder(data);
    else if (name === "PaymentRequested") this.readPayment().catch(() => this.enterPayment(data));
    else if (name === "PaymentFailed") this.declined(data.message);
    else if (name === "PaymentCancelled") this.leavePayment();
    else if (name === "PaymentSucceeded") this.thankYou(data.order_number, data.total_cents);
  }

  applyStatus(body) {
    const previous = this.status;
    this.status = body.status;
    if (body.status === "pending") {
      showScreen("waiting");
    } else if (body.status === "active" || body.status === "payment") {
      this.showAgent(body);
      if (body.status === "active" && previous === "payment") this.leavePayment();
      if (previous === "pending" || previous === null) announce(`${body.agent ? body.agent.name : "Someone"} is here to help you.`);
    } else if (body.status === "completed") {
      if (document.body.dataset.screen !== "thanks") this.completedWithoutEvent();
    } else {
      this.ended(body.end_reason);
    }
    this.updatePolling();
  }

  showAgent(body) {
    const agent = body.agent || { name: "Our team" };
    $("#agent-name").textContent = agent.name;
    const avatar = $("#agent-avatar");
    avatar.hidden = !agent.avatar_url;
    if (agent.avatar_url) avatar.src = agent.avatar_url;
    if (document.body.dataset.screen !== "session") showScreen("session");
    this.video.start(body.video_channel || this.id);
  }

  showOrder(order) {
    this.order = order;
    renderCart(order);
  }

  enterPayment(payment) {
    if (this.method) this.method.unmount();
    this.payment = { ...payment, state: "ready" };
    this.method = paymentMethodFor(payment);
    const box = $("#payment");
    box.hidden = false;
    $("#leave-session").hidden = true; // only the agent may cancel a payment
    box.dataset.mode = this.method.mode;
    $("#payment-demo-note").hidden = !this.method.notice;
    $("#payment-demo-note").textContent = this.method.notice;
    $("#payment-amount").textContent = `To pay: ${money(payment.amount_cents, payment.currency)}`;
    this.setPaymentState("ready", "");
    const form = $("#payment-form");
    Promise.resolve(this.method.mount(form))
      .then(() => {
        const button = document.createElement("button");
        button.id = "pay";
        button.type = "button";
        button.className = "primary huge";
        button.textContent = "Pay";
        button.addEventListener("click", () => this.pay());
        form.append(button);
      })
      .catch((error) => this.setPaymentState("error", "", `Card payment cannot start: ${error.message}`));
    announce("Please pay by card.");
  }

  setPaymentState(state, text, error = "") {
    $("#payment").dataset.state = state;
    if (this.payment) this.payment.state = state;
    $("#payment-state").textContent = text;
    showError($("#payment-error"), error);
    const button = $("#pay");
    if (button) button.disabled = state === "processing";
  }

  async pay() {
    if (!this.method || this.payment.state === "processing") return;
    this.setPaymentState("processing", "Processing your card…");
    try {
      await this.method.pay();
      // Accepted by the processor: the service confirms through PaymentSucceeded (or the status).
      if (this.payment && this.payment.state === "processing") this.setPaymentState("processing", "Confirming your payment…");
      if (!this.live) window.setTimeout(() => this.refresh(), 500);
    } catch (error) {
      if (error instanceof CardDeclined) this.declined(error.message);
      else this.setPaymentState("ready", "", `${error.message} Please try again.`);
    }
  }

  declined(message) {
    if (!this.payment) return;
    const reason = message && !/declined/i.test(message) ? ` (${message})` : "";
    this.setPaymentState("declined", "", `Card declined, try another card.${reason}`);
    const input = $("#card-number");
    if (input) input.value = "";
    announce("Card declined, try another card.");
  }

  leavePayment() {
    if (this.method) this.method.unmount();
    this.method = null;
    this.payment = null;
    $("#payment").hidden = true;
    $("#leave-session").hidden = false;
    $("#payment-form").replaceChildren();
    showError($("#payment-error"), "");
  }

  async completedWithoutEvent() {
    const id = this.id;
    try {
      const order = await get(`/api/public/sessions/${id}/order`);
      if (id !== this.id) return undefined; // PaymentSucceeded came first and said it all
      if (order.status && order.status !== "failed" && order.order_number) {
        return this.thankYou(order.order_number, order.total_cents);
      }
    } catch (error) {
      logFailure("reading the paid order", error); // the ending below still shows
    }
    return id === this.id ? this.ended("completed") : undefined;
  }

  thankYou(orderNumber, totalCents) {
    if (!this.id) return;
    const currency = (this.order && this.order.currency) || (this.payment && this.payment.currency) || "USD";
    $("#thanks-demo-note").hidden = !(this.method && this.method.mode === "demo");
    this.close();
    $("#order-number").textContent = orderNumber;
    $("#thanks-total").textContent = totalCents ? `Paid ${money(totalCents, currency)}` : "";
    showScreen("thanks");
    announce(`Thank you. Your order number is ${orderNumber}.`);
    this.onFinished("thanks");
  }

  ended(reason) {
    if (!this.id) return undefined; // told twice (the event and a poll)
    const [title, message] = ENDINGS[reason] || ENDINGS.customer_abandoned;
    this.close();
    if (reason === "kiosk_cancelled") return this.onFinished("cancelled");
    $("#ended-title").textContent = title;
    $("#ended-message").textContent = message;
    $("#screen-ended").dataset.reason = reason || "";
    showScreen("ended");
    this.onFinished("ended");
  }

  // The customer walks away (cancel while waiting, leave while with the agent).
  async cancel() {
    const id = this.id;
    if (!id) return;
    try {
      await post(`/api/public/sessions/${id}/cancel`);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 0) throw error;
      // 409: it ended meanwhile (accepted, paid, timed out): the status says what happened.
      return this.refresh();
    }
    this.close();
    this.onFinished("cancelled");
  }

  close() {
    this.leavePayment();
    this.video.stop();
    this.reset();
    renderCart(null);
  }
}
