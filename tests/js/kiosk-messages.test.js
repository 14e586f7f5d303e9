// The kiosk's message catalogs (static/kiosk/messages.js): every language has every key, nothing
// empty, the same placeholders; t() fills them and falls back to English for an unknown language.
import assert from "node:assert/strict";
import { test } from "node:test";

import { languageOf } from "../../static/agent/words.js";
import { money } from "../../static/common/format.js";
import { CATALOGS, LOCALES, t } from "../../static/kiosk/messages.js";
import { ending } from "../../static/kiosk/words.js";

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

test("every catalog has every key of every other, none empty, with the same placeholders", () => {
  const keys = new Set(Object.values(CATALOGS).flatMap((catalog) => Object.keys(catalog)));
  for (const [language, catalog] of Object.entries(CATALOGS)) {
    for (const key of keys) {
      assert.ok(key in catalog, `${language} lacks ${key}`);
      assert.ok(catalog[key].trim(), `${language} ${key} is empty`);
      assert.deepEqual(placeholders(catalog[key]), placeholders(CATALOGS.en[key]), `${language} ${key}`);
    }
  }
  assert.deepEqual(Object.keys(CATALOGS).sort(), ["de", "en", "es", "fr"]);
  assert.deepEqual(LOCALES.map((locale) => locale.split("-")[0]).sort(), ["de", "en", "es", "fr"]);
});

test("t picks the language, fills placeholders and reads English for an unknown language", () => {
  assert.equal(t("es-ES", "pay.amount", { amount: "10,88 €" }), "A pagar: 10,88 €");
  assert.equal(t("de-DE", "still_there.count", { seconds: 5 }), "Ihre Sitzung endet in 5 s.");
  assert.equal(t("pt-BR", "attract.start"), "Start your order");
  assert.equal(t("fr-FR", "no.such.key"), "no.such.key");
});

test("the kiosk's words and prices follow the customer's language; the agent reads it by name", () => {
  assert.deepEqual(ending("timed_out", "es-ES"), {
    title: "Lo sentimos, nadie ha podido atenderte",
    message: "Todo nuestro equipo está ocupado ahora mismo. Inténtalo de nuevo en unos minutos.",
  });
  assert.equal(ending("something_new", "de-DE").title, "Danke für Ihren Besuch");
  assert.equal(money(1088, "EUR", "de-DE"), "10,88\u00a0€");
  assert.equal(money(1088, "USD", "en-US"), "$10.88");
  assert.equal(languageOf("es-ES"), "Spanish (Spain)");
  assert.equal(languageOf(""), "");
});
