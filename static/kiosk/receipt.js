// The thank-you screen's receipt: what was bought, read again from the server once the
// session closed (GET .../order: the lines, and `receipt_url` only if the order is paid), a QR code
// of the receipt page (an SVG the server draws from that address, /r/<token>/qr.svg) and "Email
// me the receipt" (POST .../receipt, answered 202). Nothing of the receipt shows before the
// server gives the address: an order it does not hold as paid shows no receipt.
import { logFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { byId, money, showError } from "../common/ui.js";
import { cartView } from "./cart.js";
import { cartLineElement } from "./cart-line.js";
import { gettext_noop, t } from "./messages.js";

/**
 * @typedef {{busy: boolean, error: string, sent: string}} ReceiptMail the error is a messages.js key; `sent` the address it went to
 * @typedef {import("./state.js").KioskState} KioskState
 * @typedef {import("../common/store.js").Store<KioskState>} KioskStore
 */

/** @type {ReceiptMail} */
export const NO_MAIL = Object.freeze({ busy: false, error: "", sent: "" });

// Enough to catch a slip (no @, no dot after it, a space); the server's check is the real one.
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The messages.js key saying why an address is not sent yet ("" when it may be). @param {string} email */
export function addressProblem(email) {
  if (!email) return gettext_noop("receipt.empty");
  return LOOKS_LIKE_EMAIL.test(email) && email.length <= 254 ? "" : gettext_noop("receipt.invalid");
}

/** The messages.js key for a mail the service refused or never heard of. @param {any} error */
export function mailRefusal(error) {
  const code = error && error.code;
  if (code === "VALIDATION_ERROR") return gettext_noop("receipt.invalid");
  if (code === "RATE_LIMITED") return gettext_noop("receipt.too_many");
  if (code === "INVALID_STATE") return gettext_noop("receipt.not_paid");
  return gettext_noop("receipt.failed");
}

/**
 * @param {object} deps
 * @param {KioskStore} deps.store
 * @param {(path: string) => Promise<any>} deps.get
 * @param {(path: string, body: any) => Promise<any>} deps.post
 * @param {(text: string) => void} deps.announce
 */
export function createReceipt({ store, get, post, announce }) {
  const setMail = (/** @type {Partial<ReceiptMail>} */ change) => store.set(({ receiptMail }) => ({ receiptMail: { ...receiptMail, ...change } }));

  // A new thank-you: a fresh form, and the paid order as the server holds it now.
  watch(store, (s) => (s.thanks ? s.thanks.sessionId : null), async (sessionId) => {
    store.set({ receiptMail: NO_MAIL });
    if (!sessionId) return;
    try {
      const order = await get(`/api/public/sessions/${sessionId}/order`);
      store.set(({ thanks }) => ({
        thanks: thanks && thanks.sessionId === sessionId ? { ...thanks, order, receiptUrl: order.receipt_url || null } : thanks,
      }));
    } catch (error) {
      logFailure("reading the paid order for its receipt", error); // the number still shows
    }
  });

  /** Mail the receipt; true once the service took it. @param {string} typed */
  async function send(typed) {
    const { thanks, receiptMail } = store.get();
    if (!thanks || !thanks.receiptUrl || receiptMail.busy) return false;
    const email = typed.trim();
    const problem = addressProblem(email);
    if (problem) {
      setMail({ error: problem, sent: "" });
      return false;
    }
    setMail({ busy: true, error: "", sent: "" });
    try {
      await post(`/api/public/sessions/${thanks.sessionId}/receipt`, { email });
    } catch (error) {
      const key = mailRefusal(error);
      if (key === "receipt.failed") logFailure("mailing the receipt", error); // said on the screen too
      setMail({ busy: false, error: key });
      return false;
    }
    setMail({ busy: false, sent: email });
    announce(t(store.get().locale, "receipt.sent_announce"));
    return true;
  }

  return { send };
}

/** The thank-you screen from the store. @param {KioskStore} store */
export function renderThanks(store) {
  const shown = (/** @type {KioskState} */ s) => JSON.stringify([s.thanks, s.receiptMail, s.locale]);
  watch(store, shown, (_, state) => drawThanks(state));
  // A new customer's thank-you starts with an empty address field.
  watch(store, (s) => (s.thanks ? s.thanks.sessionId : null), () => (byId("receipt-email", HTMLInputElement).value = ""));
}

/** @param {KioskState} state */
function drawThanks({ thanks, receiptMail, locale }) {
  if (!thanks) return;
  byId("thanks-demo-note").hidden = !thanks.demo;
  byId("order-number").textContent = thanks.orderNumber;
  const paid = money(thanks.totalCents, thanks.currency, locale);
  byId("thanks-total").textContent = thanks.totalCents ? t(locale, "thanks.paid", { amount: paid }) : "";
  // How it was paid (card, how it was read), as the receipt says it: the server words it.
  const cardLines = (thanks.order && thanks.order.receipt_card_lines) || [];
  byId("thanks-card").replaceChildren(...cardLines.map((line) => Object.assign(document.createElement("li"), { textContent: line })));

  const cart = cartView(thanks.order, locale);
  byId("thanks-bought").hidden = cart.empty;
  const list = byId("thanks-lines");
  list.setAttribute("aria-label", t(locale, "access.thanks_lines")); // said as the list takes the focus (thanks-lines.js)
  list.replaceChildren(
    ...cart.lines.map((line) => cartLineElement(line)),
  );
  // The tax between the lines and the total, as on the cart: a total above the lines' sum is explained.
  byId("thanks-order-subtotal").textContent = cart.subtotal;
  byId("thanks-order-tax").textContent = cart.tax;
  byId("thanks-order-total").textContent = cart.total;

  const receipt = byId("thanks-receipt");
  receipt.hidden = !thanks.receiptUrl;
  const qr = byId("receipt-qr", HTMLImageElement);
  qr.alt = t(locale, "thanks.qr_label");
  if (thanks.receiptUrl) {
    receipt.dataset.receiptUrl = thanks.receiptUrl; // the address the code holds (tests read it)
    const src = `${thanks.receiptUrl}/qr.svg`;
    if (qr.getAttribute("src") !== src) qr.src = src;
  } else {
    delete receipt.dataset.receiptUrl;
    qr.removeAttribute("src");
  }
  const button = byId("receipt-send", HTMLButtonElement);
  button.disabled = receiptMail.busy;
  button.textContent = receiptMail.busy ? t(locale, "receipt.sending") : t(locale, "receipt.send");
  showError(byId("receipt-error"), receiptMail.error ? t(locale, receiptMail.error) : "");
  const sent = byId("receipt-sent");
  sent.textContent = receiptMail.sent ? t(locale, "receipt.sent", { email: receiptMail.sent }) : "";
  sent.hidden = !receiptMail.sent;
  byId("receipt-email").setAttribute("aria-invalid", String(Boolean(receiptMail.error)));
}
