// The kiosk's gettext catalogues (locale/<language>/LC_MESSAGES/djangojs.po, read as the app
// reads them: static/kiosk/messages.js): every language has every key, nothing empty, the same
// placeholders; every key the kiosk's code and page name is in every catalogue; t() fills the
// placeholders and falls back to English for an unknown language.
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { test } from "node:test";

import { parsePo } from "./support/catalogues.js";
import { languageOf } from "../../static/agent/words.js";
import { money } from "../../static/common/format.js";
import { CATALOGS, LOCALES, loadCatalogs, t } from "../../static/kiosk/messages.js";
import { ending } from "../../static/kiosk/words.js";

const placeholders = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
const KIOSK = new URL("../../static/kiosk/", import.meta.url);

/** Every message key the kiosk names: its code's key literals (a known namespace, dot, name) and
 * its page's data-i18n, data-i18n-label and data-reply attributes. */
function keysNamed() {
  const namespaces = new Set(Object.keys(CATALOGS.en).map((key) => key.split(".")[0]));
  const named = new Map();
  for (const file of readdirSync(KIOSK).filter((name) => name.endsWith(".js") && name !== "messages.js")) {
    const code = readFileSync(new URL(file, KIOSK), "utf8");
    for (const [, key] of code.matchAll(/["'`]([a-z_]+(?:\.[A-Za-z_]+)+)["'`]/g)) {
      if (namespaces.has(key.split(".")[0])) named.set(key, file);
    }
  }
  const page = readFileSync(new URL("index.html", KIOSK), "utf8");
  for (const [, key] of page.matchAll(/data-(?:i18n|i18n-label|reply)="([^"]+)"/g)) named.set(key, "index.html");
  return named;
}

test("every catalogue has every key of every other, none empty, with the same placeholders", () => {
  const keys = new Set(Object.values(CATALOGS).flatMap((catalog) => Object.keys(catalog)));
  assert.ok(keys.size > 150, `only ${keys.size} keys read from the .po files`);
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

test("every key the kiosk's code and page name is in every catalogue", () => {
  const named = keysNamed();
  for (const sample of ["ended.timed_out.title", "receipt.failed", "card.demo.succeeds", "chat.repeat", "loading", "attract.language"]) {
    assert.ok(named.has(sample), `the scan misses ${sample}`); // the scan itself sees keys in each form
  }
  for (const [key, where] of named) {
    for (const [language, catalog] of Object.entries(CATALOGS)) assert.ok(catalog[key], `${key} (${where}) is missing from ${language}'s djangojs.po`);
  }
});

test("keys are named whole in the code: only the menu's codes are joined to a prefix", () => {
  for (const file of readdirSync(KIOSK).filter((name) => name.endsWith(".js"))) {
    const code = readFileSync(new URL(file, KIOSK), "utf8");
    for (const [literal] of code.matchAll(/\bt\([^,()]+,\s*`[^`]*`/g)) {
      assert.match(literal, /`(allergen|dietary)\.\$\{code\}`/, `${file}: a computed key escapes the catalogue test: ${literal}`);
    }
  }
});

test("every catalogue key is said somewhere (the menu's allergen and dietary codes come from the server)", () => {
  const named = keysNamed();
  const unused = Object.keys(CATALOGS.en).filter((key) => !named.has(key) && !/^(allergen|dietary)\./.test(key));
  assert.deepEqual(unused, []);
});

test("the .po reader keeps translations only: no header, no fuzzy, obsolete or untranslated entry; escapes read", () => {
  const po = ['msgid ""', 'msgstr "Language: es\\n"', "", "#, fuzzy", 'msgid "a.b"', 'msgstr "guess"', "", 'msgid "c.d"', 'msgstr ""', '"say \\"hi\\"\\n"', "", '#~ msgid "e.f"', '#~ msgstr "old"', "", 'msgid "Not translated"', 'msgstr ""', ""].join("\n");
  assert.deepEqual(parsePo(po), { "c.d": 'say "hi"\n' });
});

test("t picks the language, fills placeholders and reads English for an unknown language", () => {
  assert.equal(t("es-ES", "pay.amount", { amount: "10,88 €" }), "A pagar: 10,88 €");
  assert.equal(t("de-DE", "still_there.count", { seconds: 5 }), "Ihre Sitzung endet in 5 s.");
  assert.equal(t("pt-BR", "attract.start"), "Start your order");
  assert.equal(t("fr-FR", "no.such.key"), "no.such.key");
});

test("loadCatalogs installs Django's JSON catalogue bodies, one per language, and fails with one", async () => {
  const saved = { ...CATALOGS };
  try {
    const asked = [];
    await loadCatalogs(async (language) => {
      asked.push(language);
      return { catalog: { "order.total": `total-${language}`, "some.plural": ["one", "many"] }, formats: {}, plural: null };
    });
    assert.deepEqual(asked, ["en", "es", "fr", "de"]);
    assert.equal(t("fr-FR", "order.total"), "total-fr");
    assert.equal(CATALOGS.de["some.plural"], undefined);
    await assert.rejects(loadCatalogs(async (language) => (language === "fr" ? Promise.reject(new Error("offline")) : { catalog: {} })), /offline/);
  } finally {
    Object.assign(CATALOGS, saved);
  }
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

test("the loader's inline sentence is the catalogues' loading.unreachable in each language", () => {
  // static/kiosk/main.js runs the page (it loads the app), so its table is read from its text.
  const loader = readFileSync(new URL("main.js", KIOSK), "utf8");
  const table = loader.match(/export const UNREACHABLE = \{\n([\s\S]*?)\n\};/);
  assert.ok(table, "main.js names its UNREACHABLE table");
  const inline = Object.fromEntries([...table[1].matchAll(/(\w+): "([^"]*)"/g)].map(([, language, text]) => [language, text]));
  assert.deepEqual(Object.keys(inline).sort(), Object.keys(CATALOGS).sort());
  for (const [language, catalog] of Object.entries(CATALOGS)) assert.equal(inline[language], catalog["loading.unreachable"], language);
});
