// The shared store (static/common/store.js): plain state, changed by set, told to subscribers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { createStore, watch } from "../../static/common/store.js";

test("set merges a change and tells every subscriber the new and the previous state", () => {
  const store = createStore({ screen: "loading", count: 0 });
  const seen = [];
  store.subscribe((state, previous) => seen.push([previous.screen, state.screen, state.count]));
  store.set({ screen: "attract" });
  store.set((state) => ({ count: state.count + 1 }));
  assert.deepEqual(seen, [
    ["loading", "attract", 0],
    ["attract", "attract", 1],
  ]);
  assert.deepEqual(store.get(), { screen: "attract", count: 1 });
});

test("a change that changes nothing tells nobody, and the state cannot be edited in place", () => {
  const store = createStore({ screen: "attract" });
  let told = 0;
  store.subscribe(() => (told += 1));
  store.set({ screen: "attract" });
  assert.equal(told, 0);
  assert.throws(() => {
    "use strict";
    /** @type {any} */ (store.get()).screen = "thanks";
  }, TypeError);
});

test("a change made by a subscriber comes after the round, so everyone sees every state in order", () => {
  const store = createStore({ step: 0 });
  const first = [];
  const second = [];
  store.subscribe((state) => {
    first.push(state.step);
    if (state.step === 1) store.set({ step: 2 });
  });
  store.subscribe((state) => second.push(state.step));
  store.set({ step: 1 });
  assert.deepEqual(first, [1, 2]);
  assert.deepEqual(second, [1, 2]);
});

test("unsubscribe stops the calls; watch renders now and only when its slice changes", () => {
  const store = createStore({ order: null, banner: "" });
  const drawn = [];
  const stop = watch(store, (state) => state.order, (order) => drawn.push(order));
  store.set({ banner: "Connection lost." });
  const order = { lines: [] };
  store.set({ order });
  stop();
  store.set({ order: null });
  assert.deepEqual(drawn, [null, order]);
});
