// The session view: menu, cart (every change POSTs the whole cart: replace semantics, and shows
// the server's totals), payment as it happens, and ending the session.
import { get, post } from "./api.js";
import { ModifierDialog } from "./modifiers.js";
import { logFailure } from "../common/report.js";
import { $, announce, duration, el, money, showError } from "./ui.js";
import { VideoPane } from "./video.js";

const PAYMENT_POLL_MS = 1500; // the agent's channel carries no payment events: read the session
const ACTIVE_POLL_MS = 5000; // notices a kiosk that cancels mid-session
const OUTCOME = { completed: "completed", abandoned: "abandoned", failed: "failed" };

export class SessionView {
  constructor({ onEnded }) {
    this.onEnded = onEnded;
    this.session = null;
    this.lines = []; // what the agent built: {menu_item_id, name, quantity, modifier_option_ids, modifiers, notes}
    this.errors = {};
    this.order = null;
    this.syncing = Promise.resolve();
    this.pollTimer = null;
    this.video = new VideoPane();
    this.dialog = new ModifierDialog();
    $("#send-payment").addEventListener("click", () => this.sendToPayment());
    $("#cancel-payment").addEventListener("click", () => this.cancelPayment());
    $("#end-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.end();
    });
  }

  get active() {
    return this.session !== null;
  }

  async open(session, order) {
    const same = this.session && this.session.id === session.id;
    this.session = session;
    $("#session-title").textContent = `Session with ${session.kiosk.name}`;
    $("#session-where").textContent = [session.kiosk.location, session.business.name].filter(Boolean).join(" · ");
    if (!same) {
      this.lines = (order ? order.lines : []).map((line) => ({
        menu_item_id: line.menu_item_id,
        name: line.name,
        quantity: line.quantity,
        modifier_option_ids: line.modifier_option_ids || [],
        modifiers: line.modifiers,
        notes: line.notes || "",
      }));
      this.errors = {};
      this.order = order;
    }
    this.renderCart();
    this.showPayment(session.status, order);
    this.video.start(session.video_channel);
    this.schedulePoll();
    try {
      const menu = await get("/api/menu");
      this.renderMenu(menu.categories);
    } catch (error) {
      showError($("#cart-error"), `The menu could not be loaded: ${error.message}`);
    }
  }

  // --- menu ---------------------------------------------------------------------------------
  renderMenu(categories) {
    const root = $("#menu");
    root.replaceChildren();
    [...categories]
      .sort((a, b) => a.sort_order - b.sort_order)
      .forEach((category) => {
        const items = category.menu_items.map((item) =>
          el(
            "li",
            {},
            el(
              "button",
              {
                type: "button",
                class: item.photo_url ? "menu-item has-photo" : "menu-item",
                "data-item-id": item.id,
                disabled: item.sold_out,
                "aria-label": `${item.name}, ${money(item.price_cents)}${item.sold_out ? ", sold out" : ""}`,
                onclick: () => this.choose(item),
              },
              item.photo_url ? el("img", { src: item.photo_url, alt: "", loading: "lazy" }) : null,
              el("span", { class: "name", text: item.name }),
              el("span", { class: "price", text: money(item.price_cents) }),
              el("span", { class: "description", text: item.sold_out ? "Sold out" : item.description }),
            ),
          ),
        );
        root.append(el("section", { class: "category" }, el("h3", { text: category.name }), el("ul", {}, items)));
      });
  }

  async choose(item) {
    const chosen = item.modifier_groups.length ? await this.dialog.ask(item) : { optionIds: [], labels: [] };
    if (!chosen) return;
    this.lines.push({
      menu_item_id: item.id,
      name: item.name,
      quantity: 1,
      modifier_option_ids: chosen.optionIds,
      modifiers: chosen.labels,
      notes: "",
    });
    announce(`${item.name} added.`);
    this.sync();
  }

  // --- cart ---------------------------------------------------------------------------------
  get locked() {
    return this.session && this.session.status === "payment";
  }

  change(index, update) {
    if (this.locked) return;
    update(this.lines[index]);
    this.lines = this.lines.filter((line) => line.quantity > 0);
    this.sync();
  }

  sync() {
    const session = this.session;
    const lines = this.lines.map(({ menu_item_id, quantity, modifier_option_ids, notes }) => ({
      menu_item_id,
      quantity,
      modifier_option_ids,
      notes,
    }));
    const list = $("#cart-lines");
    this.pendingSyncs = (this.pendingSyncs || 0) + 1;
    list.dataset.saving = "true"; // tests and assistive tech can tell a cart still being saved
    this.syncing = this.syncing.then(async () => {
      await this.send(session, lines);
      this.pendingSyncs -= 1;
      if (!this.pendingSyncs) list.dataset.saving = "false";
    });
    return this.syncing;
  }

  async send(session, lines) {
    if (!session || session !== this.session) return;
    try {
      this.order = await post("/api/orders", { session_id: session.id, lines });
      this.errors = {};
      showError($("#cart-error"), "");
    } catch (error) {
      this.errors = error.status === 422 ? (error.details.lines || {}) : {};
      const words = {
        422: "Some lines cannot be ordered; see the notes next to them.",
        409: error.code === "ORDER_LOCKED" ? "The cart is locked while the customer pays." : error.message,
        401: "You were signed out; sign in again and the cart will be sent.",
      };
      showError($("#cart-error"), words[error.status] || `The cart was not saved: ${error.message}`);
    }
    this.renderCart();
  }

  renderCart() {
    const currency = (this.order && this.order.currency) || "USD";
    const list = $("#cart-lines");
    list.replaceChildren();
    this.lines.forEach((line, index) => {
      const server = this.order && !Object.keys(this.errors).length ? this.order.lines[index] : null;
      const problems = this.errors[String(index)] || [];
      const modifiers = (server ? server.modifiers : line.modifiers).map((m) => `${m.group}: ${m.value}`).join(", ");
      list.append(
        el(
          "li",
          { class: problems.length ? "line invalid" : "line", "data-index": index },
          el("span", { class: "name", text: line.name }),
          modifiers ? el("span", { class: "modifiers", text: modifiers }) : null,
          server ? el("span", { class: "price", text: money(server.unit_price_cents * server.quantity, currency) }) : null,
          el(
            "span",
            { class: "stepper" },
            el("button", {
              type: "button",
              class: "decrease",
              "aria-label": `One less ${line.name}`,
              text: "−",
              disabled: this.locked,
              onclick: () => this.change(index, (l) => (l.quantity -= 1)),
            }),
            el("span", { class: "quantity", "aria-live": "polite", text: String(line.quantity) }),
            el("button", {
              type: "button",
              class: "increase",
              "aria-label": `One more ${line.name}`,
              text: "+",
              disabled: this.locked || line.quantity >= 99,
              onclick: () => this.change(index, (l) => (l.quantity += 1)),
            }),
          ),
          el("input", {
            class: "notes",
            "aria-label": `Notes for ${line.name}`,
            placeholder: "Notes",
            maxlength: 500,
            value: line.notes,
            disabled: this.locked,
            onchange: (event) => this.change(index, (l) => (l.notes = event.target.value)),
          }),
          el("button", {
            type: "button",
            class: "remove",
            text: "Remove",
            "aria-label": `Remove ${line.name}`,
            disabled: this.locked,
            onclick: () => this.change(index, (l) => (l.quantity = 0)),
          }),
          problems.length ? el("p", { class: "line-error", role: "alert", text: problems.join(" ") }) : null,
        ),
      );
    });
    const order = this.order || { subtotal_cents: 0, tax_cents: 0, total_cents: 0 };
    $("#cart-subtotal").textContent = money(order.subtotal_cents, currency);
    $("#cart-tax").textContent = money(order.tax_cents, currency);
    $("#cart-total").textContent = money(order.total_cents, currency);
    $("#send-payment").disabled = this.locked || !this.lines.length || Object.keys(this.errors).length > 0;
  }

  // --- payment ------------------------------------------------------------------------------
  showPayment(status, order) {
    const payment = $("#payment");
    let state = "none";
    let text = "";
    if (status === "payment") {
      state = order && order.status === "failed" ? "declined" : "waiting";
      text =
        state === "declined"
          ? "Card declined. The customer may try another card, or cancel the payment to change the order."
          : "Waiting for the customer's card…";
    }
    if (payment.dataset.state !== state && text) announce(text);
    payment.dataset.state = state;
    $("#payment-state").textContent = text;
    $("#send-payment").hidden = status === "payment";
    $("#cancel-payment").hidden = status !== "payment";
    this.renderCart();
  }

  async sendToPayment() {
    await this.syncing;
    if (Object.keys(this.errors).length) return;
    try {
      const body = await post(`/api/sessions/${this.session.id}/payment`);
      this.session.status = body.session.status;
      this.showPayment(this.session.status, this.order);
      this.schedulePoll();
    } catch (error) {
      showError($("#cart-error"), `Payment could not start: ${error.message}`);
    }
  }

  async cancelPayment() {
    try {
      const body = await post(`/api/sessions/${this.session.id}/payment/cancel`);
      this.session.status = body.session.status;
      if (this.order) this.order.status = "draft";
      this.showPayment(this.session.status, this.order);
      announce("Payment cancelled: the order can be changed.");
    } catch (error) {
      showError($("#cart-error"), `The payment could not be cancelled: ${error.message}`);
    }
  }

  schedulePoll() {
    window.clearTimeout(this.pollTimer);
    if (!this.session) return;
    const delay = this.session.status === "payment" ? PAYMENT_POLL_MS : ACTIVE_POLL_MS;
    this.pollTimer = window.setTimeout(() => this.poll(), delay);
  }

  async poll() {
    const session = this.session;
    if (!session) return;
    try {
      const body = await get(`/api/sessions/${session.id}`);
      if (session !== this.session) return;
      const latest = body.session;
      if (["completed", "abandoned", "failed"].includes(latest.status)) {
        const paid = latest.status === "completed" && body.order && body.order.status !== "draft";
        this.finish(latest, paid ? `Paid: order ${body.order.order_number}, ${money(body.order.total_cents, body.order.currency)}.` : "");
        return;
      }
      if (latest.status !== session.status || (body.order && this.order && body.order.status !== this.order.status)) {
        session.status = latest.status;
        if (this.order && body.order) this.order.status = body.order.status;
        this.showPayment(latest.status, body.order);
      }
    } catch (error) {
      // A 401 goes to sign-in; others: try again next round.
      if (error.status !== 401) logFailure("reading the session", error);
    }
    this.schedulePoll();
  }

  // --- end ----------------------------------------------------------------------------------
  async end() {
    const reason = $("#end-reason").value;
    try {
      const body = await post(`/api/sessions/${this.session.id}/end`, { reason, notes: $("#end-notes").value });
      this.finish(body.session, "");
    } catch (error) {
      if (error.code === "SESSION_ALREADY_ENDED") return this.poll();
      showError($("#cart-error"), `The session could not be ended: ${error.message}`);
    }
  }

  finish(ended, prefix) {
    const outcome = OUTCOME[ended.status] || ended.status;
    const text = `${prefix ? prefix + " " : ""}Session ${outcome} after ${duration(ended.duration_seconds || 0)}.`;
    this.close();
    this.onEnded(text);
  }

  // Stops reading the session (before signing out); the session itself goes on on the server.
  pause() {
    window.clearTimeout(this.pollTimer);
    this.video.stop();
  }

  close() {
    window.clearTimeout(this.pollTimer);
    this.session = null;
    this.lines = [];
    this.order = null;
    this.errors = {};
    $("#end-notes").value = "";
    this.dialog.close();
    this.video.stop();
  }
}
