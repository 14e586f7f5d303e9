// The customer's language everywhere on the kiosk (static/kiosk/messages.js, words.js, payment.js)
// and what the agent's queue keeps of it (static/agent/queue-state.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { addCard, EMPTY_QUEUE, mergeSnapshot, withAccessible, withLocale } from "../../static/agent/queue-state.js";
import { CATALOGS, LANGUAGE_NAMES, LOCALES, t } from "../../static/kiosk/messages.js";
import { connectionLost, pairingFormProblem, pairingRefusal, startRefusal } from "../../static/kiosk/words.js";

test("the demo card form, its note and the default attract line are catalogue words in every language", () => {
  for (const key of ["pay.demo_note", "card.number", "card.demo_cards", "attract.message", "card.demo.succeeds", "card.demo.declined", "card.demo.insufficient_funds", "card.demo.processing_error"]) {
    for (const [language, catalog] of Object.entries(CATALOGS)) assert.ok(catalog[key], `${language} lacks ${key}`);
    if (key !== "card.demo_cards") assert.notEqual(CATALOGS.es[key], CATALOGS.en[key], `${key} is not translated`);
  }
  assert.equal(t("es-ES", "pay.demo_note"), "Pagos de demostración: no se mueve dinero.");
  assert.equal(t("de-DE", "card.number"), "Kartennummer");
  assert.equal(t("fr-FR", "attract.message"), "Touchez pour commander avec une vraie personne");
});

test("pairing, starting and the network banner speak the kiosk's language", () => {
  assert.equal(pairingFormProblem("12", "Front", "es-ES"), "Introduce el código de vinculación de 6 cifras.");
  assert.equal(pairingRefusal({ code: "PAIRING_CODE_EXPIRED" }, "de-DE"), t("de-DE", "pairing.expired"));
  assert.equal(pairingRefusal({ code: "X", status: 429, retryAfter: 40 }, "fr-FR"), "Trop de tentatives d'association. Attendez 40 secondes, puis réessayez.");
  assert.equal(startRefusal({ code: "OWNER_SUSPENDED" }, "es-ES"), t("es-ES", "start.suspended"));
  assert.equal(connectionLost(3, "de-DE"), "Verbindung verloren. Neuer Versuch in 3 s…");
  assert.equal(connectionLost(null), "Connection lost. Check the network, then try again."); // English by default
});

test("every language button has its own name, the same whatever the language", () => {
  assert.deepEqual(Object.keys(LANGUAGE_NAMES), [...LOCALES]);
  assert.equal(LANGUAGE_NAMES["es-ES"], "Español");
});

test("a card's language follows the customer: the message, and a poll that says it", () => {
  const card = { id: "ses_1", kiosk: { name: "K" }, business: { name: "B" }, customer_locale: "en-US" };
  const queue = addCard(EMPTY_QUEUE, card, 1000);
  const spanish = withLocale(queue, "ses_1", "es-ES");
  assert.equal(spanish.cards[0].session.customer_locale, "es-ES");
  assert.equal(spanish.cards[0].receivedAt, 1000); // the same card, not a new arrival
  assert.equal(withLocale(spanish, "ses_1", "es-ES"), spanish); // nothing new: the same queue
  assert.equal(withLocale(spanish, "ses_other", "fr-FR"), spanish);
  const { queue: polled, added } = mergeSnapshot(spanish, [{ ...card, customer_locale: "fr-FR" }], 2000, 2000);
  assert.deepEqual(added, []);
  assert.equal(polled.cards[0].session.customer_locale, "fr-FR");
});

test("an offer card's accessible mode follows the customer: the message, and a poll that says it", () => {
  const card = { id: "ses_1", kiosk: { name: "K" }, business: { name: "B" }, customer_locale: "en-US", accessible_mode: false };
  const queue = addCard(EMPTY_QUEUE, card, 1000);
  const on = withAccessible(queue, "ses_1", true);
  assert.equal(on.cards[0].session.accessible_mode, true);
  assert.equal(on.cards[0].receivedAt, 1000); // the same card, not a new arrival
  assert.equal(withAccessible(on, "ses_1", true), on); // nothing new: the same queue
  assert.equal(withAccessible(on, "ses_other", true), on);
  const { queue: polled, added } = mergeSnapshot(on, [{ ...card, accessible_mode: false }], 2000, 2000);
  assert.deepEqual(added, []);
  assert.equal(polled.cards[0].session.accessible_mode, false);
});
