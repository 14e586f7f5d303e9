// "Print receipt" on the thank-you screen (static/kiosk/receipt-print.js): when the button is
// offered, what the screen says while and after asking, the refusals in words, every language.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { CATALOGS, t } from "../../static/kiosk/messages.js";
import { NO_PRINT, printFromBody, printRefusal, printView } from "../../static/kiosk/receipt-print.js";

test("the button is offered only when the kiosk has a receipt printer and nothing was printed yet", () => {
  assert.deepEqual(printView(NO_PRINT), { button: "", busy: false, status: "" });
  assert.deepEqual(printFromBody({ printer: false, status: null }), NO_PRINT);
  const offered = printFromBody({ printer: true, status: null });
  assert.deepEqual(offered, { printer: true, always: false, phase: "idle", error: "" });
  assert.deepEqual(printView(offered), { button: "receipt.print", busy: false, status: "" });
});

test("asked, the screen says it prints; a receipt the server holds is not offered again", () => {
  assert.deepEqual(printView({ printer: true, always: false, phase: "sending", error: "" }), { button: "receipt.print", busy: true, status: "receipt.printing" });
  for (const status of ["waiting", "printing", "printed"]) {
    const print = printFromBody({ printer: true, status }); // printed by itself (print always) or asked before
    assert.equal(print.phase, "queued", status);
    assert.deepEqual(printView(print), { button: "", busy: false, status: "receipt.printed" });
  }
  const failed = printFromBody({ printer: true, status: "failed" });
  assert.deepEqual(failed, { printer: true, always: false, phase: "idle", error: "receipt.print_failed" });
  assert.equal(printView(failed).button, "receipt.print"); // may be asked again
});

test("the service's refusals are said in words, a lost network too", () => {
  assert.equal(printRefusal({ code: "INVALID_STATE" }), "receipt.print_unavailable");
  assert.equal(printRefusal({ code: "SESSION_NOT_FOUND" }), "receipt.print_failed");
  assert.equal(printRefusal({ code: "NETWORK" }), "receipt.print_failed");
  assert.equal(printRefusal(new Error("boom")), "receipt.print_failed");
});

test("every printing sentence is in every language", () => {
  const keys = ["receipt.print", "receipt.printing", "receipt.printed", "receipt.print_failed", "receipt.print_unavailable"];
  for (const language of Object.keys(CATALOGS)) {
    for (const key of keys) assert.ok(CATALOGS[language][key], `${language} lacks ${key}`);
  }
  assert.equal(t("es-ES", "receipt.print"), "Imprimir recibo");
  assert.equal(t("fr-FR", "receipt.printed"), "Votre reçu est en cours d'impression.");
});

test("when the owner prints every receipt the kiosk asks by itself, once, and shows no button", async () => {
  const { createStore } = await import("../../static/common/store.js");
  const { createReceiptPrint } = await import("../../static/kiosk/receipt-print.js");
  const store = createStore({ thanks: null, receiptPrint: NO_PRINT, locale: "en-US" });
  /** @type {string[]} */
  const posted = [];
  let held = null;
  const get = async () => ({ printer: true, always: true, status: held });
  const post = async (/** @type {string} */ path) => {
    posted.push(path);
    held = "waiting";
    return { printer: true, always: true, status: held };
  };
  const announced = [];
  createReceiptPrint({ store, get, post, announce: (text) => announced.push(text) });
  store.set({ thanks: { sessionId: "ses_1" } });
  await new Promise((resolve) => setTimeout(resolve, 0));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(posted, ["/api/public/sessions/ses_1/receipt/print"]);
  assert.equal(store.get().receiptPrint.phase, "queued");
  assert.deepEqual(printView(store.get().receiptPrint), { button: "", busy: false, status: "receipt.printed" });
  assert.deepEqual(printView({ printer: true, always: true, phase: "sending", error: "" }).button, "");
  assert.deepEqual(announced, ["Printing your receipt…", "Your receipt is printing."]);
});
