// The agent's "My sessions today" figures, in words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { handleWords, todayFigures } from "../../static/agent/today-figures.js";

test("the figures read sessions, handle time, conversion and sales", () => {
  const figures = todayFigures({ day: "2026-10-25", currency: "USD", sessions_started: 2, sessions_answered: 2, handle_seconds_avg: 360, conversion: 0.5, revenue_cents: 1500 });
  assert.deepEqual(figures.map(([label]) => label), ["Sessions", "Average handle time", "Conversion", "Sales"]);
  assert.deepEqual(figures.map(([, value]) => value).slice(0, 3), ["2", "6 min 00 s", "50 %"]);
  assert.match(figures[3][1], /15\.00/);
});

test("a day without answered sessions says a dash, not zero", () => {
  const figures = todayFigures({ day: "2026-10-25", currency: "EUR", sessions_started: 0, sessions_answered: 0, handle_seconds_avg: null, conversion: null, revenue_cents: 0 });
  assert.equal(figures[1][1], "–");
  assert.equal(figures[2][1], "–");
});

test("handle time under a minute is in seconds", () => {
  assert.equal(handleWords(42.4), "42 s");
  assert.equal(handleWords(61), "1 min 01 s");
});
