// Why a call failed, in the screen's own words: static/common/http.js says no sentence of its own
// (each app hands it its catalogue's words for an answer without the server's message), and the
// kiosk says the network, such an answer, a refused input and an unknown error in the customer's
// language (static/kiosk/words.js failureReason), never the English the API or the app keeps.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { ApiError, sendJson } from "../../static/common/http.js";
import { asFailure, reasonOf } from "../../static/common/report.js";
import { CATALOGS, LOCALES, t } from "../../static/kiosk/messages.js";
import { aloneRefusal } from "../../static/kiosk/self-service.js";
import { failureReason, pairingRefusal, startRefusal, videoWords } from "../../static/kiosk/words.js";

const KEYS = ["error.answered", "error.unreachable", "error.not_accepted", "error.unknown"];
const OTHERS = LOCALES.filter((locale) => !locale.startsWith("en"));

/** What sendJson rejects with when fetch answers `status` with `text`. */
async function refusal(status, text) {
  globalThis.fetch = async () => new Response(text, { status, headers: { "Content-Type": "text/html" } });
  try {
    await sendJson("http://api.test/x", { unreachable: "gone", answered: (code) => `answered ${code}` });
  } catch (error) {
    return /** @type {ApiError} */ (error);
  }
  return assert.fail("sendJson resolved");
}

test("an answer without the server's message carries the app's words for it; the server's own message is kept", async () => {
  const proxy = await refusal(502, "<html>Bad gateway</html>");
  assert.deepEqual([proxy.message, proxy.unsaid, proxy.status, proxy.code], ["answered 502", true, 502, "HTTP_502"]);
  const said = await refusal(409, JSON.stringify({ error: { code: "ORDER_LOCKED", message: "Locked." } }));
  assert.deepEqual([said.message, said.unsaid, said.code], ["Locked.", false, "ORDER_LOCKED"]);
  assert.equal(new ApiError(500, null).message, ""); // no words given: none invented
  assert.equal(reasonOf(undefined), "");
  assert.equal(asFailure(null).message, "");
});

test("every failure word is in every kiosk catalogue, and translated", () => {
  for (const key of KEYS) {
    for (const [language, catalog] of Object.entries(CATALOGS)) assert.ok(catalog[key], `${language} lacks ${key}`);
    for (const locale of OTHERS) assert.notEqual(t(locale, key, { status: 502 }), t("en-US", key, { status: 502 }), `${locale} ${key} is English`);
  }
});

test("the kiosk says why a call failed in the customer's language, never the API's English", () => {
  const proxy = { status: 502, code: "HTTP_502", message: "The server answered 502.", unsaid: true };
  const network = { status: 0, code: "NETWORK", message: "The service cannot be reached." };
  const choice = { status: 422, code: "VALIDATION_ERROR", message: "Choose eat in or take away.", details: { dining: ["Must be one of: eat_in, take_away."] } };
  const lines = { status: 422, code: "VALIDATION_ERROR", message: "Some order lines are invalid.", details: { lines: { 0: ["Fries is sold out."] } } };
  for (const locale of OTHERS) {
    assert.equal(failureReason(proxy, locale), t(locale, "error.answered", { status: 502 }));
    assert.equal(failureReason(network, locale), t(locale, "error.unreachable"));
    assert.equal(failureReason(choice, locale), t(locale, "error.not_accepted"));
    assert.equal(failureReason(asFailure(undefined), locale), t(locale, "error.unknown"));
    const screens = [
      startRefusal(proxy, locale),
      pairingRefusal(choice, locale),
      pairingRefusal(proxy, locale),
      aloneRefusal(lines, locale),
      aloneRefusal(proxy, locale),
      t(locale, "dining.error", { reason: failureReason(choice, locale) }),
      videoWords("unavailable", { error: {} }, locale),
    ];
    for (const words of screens) {
      assert.doesNotMatch(words, /answered|cannot be reached|Must be one of|eat in|sold out|unknown error|Unknown error/i, `${locale}: ${words}`);
    }
  }
  // English says the API's field problems, which name what was refused
  assert.equal(failureReason(choice, "en-US"), "Must be one of: eat_in, take_away.");
  assert.equal(aloneRefusal(lines, "en-US"), "This could not be added: Fries is sold out.");
  assert.equal(failureReason({ ...choice, details: {} }, "en-US"), "Choose eat in or take away.");
  assert.equal(failureReason(proxy, "en-US"), "The server answered 502.");
});
