// Money as the apps show it (static/common/format.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { money } from "../../static/common/format.js";

test("cents are shown in the currency and locale given", () => {
  assert.equal(money(1250, "USD", "en-US"), "$12.50");
  assert.equal(money(0, "USD", "en-US"), "$0.00");
  assert.equal(money(123456, "EUR", "de-DE"), "1.234,56\u00a0€");
});

test("a currency code Intl does not know still shows the amount and the code", () => {
  assert.equal(money(1250, "NOT-A-CODE", "en-US"), "12.50 NOT-A-CODE");
});

test("an amount whose currency is not known yet shows no symbol, in the reader's locale", () => {
  assert.equal(money(899, null, "en-US"), "8.99");
  assert.equal(money(123456, null, "de-DE"), "1.234,56");
});
