// The thank-you screen's receipt mail (static/kiosk/receipt.js): what the kiosk says before
// sending and when the service refuses, in every language of the kiosk.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { CATALOGS, t } from "../../static/kiosk/messages.js";
import { addressProblem, mailRefusal } from "../../static/kiosk/receipt.js";

test("an address is checked for slips before it is sent", () => {
  assert.equal(addressProblem(""), "receipt.empty");
  assert.equal(addressProblem("ana"), "receipt.invalid");
  assert.equal(addressProblem("ana@example"), "receipt.invalid");
  assert.equal(addressProblem("ana maria@example.com"), "receipt.invalid");
  assert.equal(addressProblem(`${"a".repeat(250)}@example.com`), "receipt.invalid");
  assert.equal(addressProblem("ana@example.com"), "");
});

test("the service's refusals are said in words, a lost network too", () => {
  assert.equal(mailRefusal({ code: "VALIDATION_ERROR" }), "receipt.invalid");
  assert.equal(mailRefusal({ code: "RATE_LIMITED" }), "receipt.too_many");
  assert.equal(mailRefusal({ code: "INVALID_STATE" }), "receipt.not_paid");
  assert.equal(mailRefusal({ code: "NETWORK" }), "receipt.failed");
  assert.equal(mailRefusal(new Error("boom")), "receipt.failed");
});

test("every receipt sentence is in every language", () => {
  const keys = ["receipt.empty", "receipt.invalid", "receipt.too_many", "receipt.not_paid", "receipt.failed", "receipt.sent"];
  for (const language of Object.keys(CATALOGS)) {
    for (const key of keys) assert.ok(CATALOGS[language][key], `${language} lacks ${key}`);
  }
  assert.equal(t("es-ES", "receipt.sent", { email: "a@b.es" }), "Recibo enviado a a@b.es.");
});
