// "Print receipt" on the thank-you screen, beside the QR code and the email form, when the kiosk
// has a receipt printer. When the thank-you opens the kiosk asks (GET .../receipt/print) whether
// it has one and whether the receipt is already on its way; the button asks for it (POST,
// answered 202), and the server prints it once however often it is asked. When the owner prints
// every receipt (`always`), the kiosk asks at once, without the button: the receipt's QR code
// holds the address the kiosk reaches the service at, which only a request from it carries. The state rules are pure functions (tests/js/kiosk-receipt-print.test.js).
import { logFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { byId, showError } from "../common/ui.js";
import { gettext_noop, t } from "./messages.js";

/**
 * @typedef {"idle" | "sending" | "queued"} PrintPhase idle: offered; sending: asked, no answer yet; queued: the server has it
 * @typedef {{printer: boolean, always: boolean, phase: PrintPhase, error: string}} ReceiptPrint `always`: the owner prints every receipt; the error is a messages.js key
 * @typedef {import("./state.js").KioskState} KioskState
 * @typedef {import("../common/store.js").Store<KioskState>} KioskStore
 */

/** @type {ReceiptPrint} */
export const NO_PRINT = Object.freeze({ printer: false, always: false, phase: "idle", error: "" });

/**
 * The state from the server's body ({printer, status}): a receipt the server holds (waiting,
 * printing, printed) is on its way and not offered again; a failed one may be asked again.
 * @param {{printer?: boolean, always?: boolean, status?: string | null}} body
 * @returns {ReceiptPrint}
 */
export function printFromBody(body) {
  const status = body.status || null;
  const queued = status !== null && status !== "failed" && status !== "withdrawn";
  const error = status === "failed" ? gettext_noop("receipt.print_failed") : "";
  return { printer: Boolean(body.printer), always: Boolean(body.printer && body.always), phase: queued ? "queued" : "idle", error };
}

/** The messages.js key for a print the service refused or never heard of. @param {any} error */
export function printRefusal(error) {
  if (error && error.code === "INVALID_STATE") return gettext_noop("receipt.print_unavailable");
  return gettext_noop("receipt.print_failed");
}

/** What the screen shows for a state: the button's words (or "" when no button), and the line under it. @param {ReceiptPrint} print */
export function printView(print) {
  if (!print.printer) return { button: "", busy: false, status: "" };
  if (print.phase === "sending") return { button: print.always ? "" : gettext_noop("receipt.print"), busy: true, status: gettext_noop("receipt.printing") };
  if (print.phase === "queued") return { button: "", busy: false, status: gettext_noop("receipt.printed") };
  return { button: gettext_noop("receipt.print"), busy: false, status: "" };
}

/** Whether the kiosk asks for the receipt by itself (the owner prints them all, and it is not asked yet). @param {ReceiptPrint} print */
export function printsByItself(print) {
  return print.printer && print.always && print.phase === "idle" && !print.error;
}

/**
 * @param {object} deps
 * @param {KioskStore} deps.store
 * @param {(path: string) => Promise<any>} deps.get
 * @param {(path: string, body: any) => Promise<any>} deps.post
 * @param {(text: string) => void} deps.announce
 */
export function createReceiptPrint({ store, get, post, announce }) {
  const path = (/** @type {string} */ sessionId) => `/api/public/sessions/${sessionId}/receipt/print`;
  const current = (/** @type {string} */ sessionId) => {
    const { thanks } = store.get();
    return Boolean(thanks && thanks.sessionId === sessionId);
  };

  // A new thank-you: nothing offered until the server says the kiosk has a printer.
  watch(store, (s) => (s.thanks ? s.thanks.sessionId : null), async (sessionId) => {
    store.set({ receiptPrint: NO_PRINT });
    if (!sessionId) return;
    try {
      const body = await get(path(sessionId));
      if (!current(sessionId)) return;
      store.set({ receiptPrint: printFromBody(body) });
      if (printsByItself(store.get().receiptPrint)) await print();
    } catch (error) {
      logFailure("reading whether the kiosk prints receipts", error); // no button: the QR code and mail remain
    }
  });

  /** Ask for the printed receipt; true once the service took it. */
  async function print() {
    const { thanks, receiptPrint } = store.get();
    if (!thanks || !receiptPrint.printer || receiptPrint.phase !== "idle") return false;
    const sessionId = thanks.sessionId;
    store.set({ receiptPrint: { ...receiptPrint, phase: "sending", error: "" } });
    announce(t(store.get().locale, "receipt.printing"));
    try {
      const body = await post(path(sessionId), {});
      if (!current(sessionId)) return false;
      store.set({ receiptPrint: { ...printFromBody(body), phase: "queued" } });
    } catch (error) {
      const key = printRefusal(error);
      if (key === "receipt.print_failed") logFailure("printing the receipt", error); // said on the screen too
      if (current(sessionId)) store.set({ receiptPrint: { ...store.get().receiptPrint, phase: "idle", error: key } });
      return false;
    }
    announce(t(store.get().locale, "receipt.printed"));
    return true;
  }

  return { print };
}

/** The button and its words from the store. @param {KioskStore} store */
export function renderReceiptPrint(store) {
  const shown = (/** @type {KioskState} */ s) => JSON.stringify([s.receiptPrint, s.locale]);
  watch(store, shown, (_, { receiptPrint, locale }) => {
    const view = printView(receiptPrint);
    const box = byId("receipt-print-box");
    box.hidden = !receiptPrint.printer;
    const button = byId("receipt-print", HTMLButtonElement);
    button.hidden = !view.button;
    button.disabled = view.busy;
    button.textContent = view.button ? t(locale, view.button) : "";
    const status = byId("receipt-print-status");
    status.textContent = view.status ? t(locale, view.status) : "";
    status.hidden = !view.status;
    showError(byId("receipt-print-error"), receiptPrint.error ? t(locale, receiptPrint.error) : "");
  });
}
