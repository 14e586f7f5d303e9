// The kiosk's session actions against a stand-in kiosk API (fetch answered in-process): what the
// store says after each server answer or event. The DOM parts (video, card fields) are stand-ins.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { answer, closeKiosks, kiosk, serve } from "./support/kiosk-session.js";
import "./support/catalogues.js"; // the kiosk's words, from the .po files

afterEach(closeKiosks);

const STARTED = { session_id: "s1", poll_url: "/api/public/sessions/s1/status", status: "pending" };

test("a started session waits, meets its agent, shows the server's order, and thanks with the number", async () => {
  serve({ "POST /api/public/sessions/start": [201, STARTED] });
  const { store, session, said, finished, video } = kiosk();
  await session.start("es-ES");
  assert.deepEqual([store.get().screen, store.get().sessionId, store.get().status.status], ["waiting", "s1", "pending"]);

  session.onEvent("SessionStatusChanged", { session_id: "s1", status: "active", agent: { name: "Ada" }, video_channel: "ch-1" });
  assert.equal(store.get().screen, "session");
  assert.deepEqual(video.channels, ["ch-1"]);
  assert.deepEqual(said, ["Ada is here to help you."]);

  session.onEvent("OrderUpdated", { session_id: "other", lines: [] }); // another session's: ignored
  const order = { session_id: "s1", currency: "EUR", lines: [], total_cents: 0 };
  session.onEvent("OrderUpdated", order);
  assert.equal(store.get().order, order);

  session.onEvent("PaymentSucceeded", { session_id: "s1", order_number: "A-17", total_cents: 1250 });
  const state = store.get();
  assert.equal(state.screen, "thanks");
  // The session closed, the thank-you keeps what receipt.js needs: the session (its order and
  // receipt are read again) and the cart as last seen; the receipt's address comes from that read.
  assert.deepEqual(state.thanks, { orderNumber: "A-17", totalCents: 1250, currency: "EUR", demo: false, sessionId: "s1", order, receiptUrl: null });
  assert.deepEqual([state.sessionId, state.status, state.order], [null, null, null]);
  assert.deepEqual(finished, ["thanks"]);
  assert.equal(video.stopped, 1);
});

test("an ending says its reason; a cancel by the kiosk goes straight back", async () => {
  serve({ "POST /api/public/sessions/start": [201, STARTED] });
  const first = kiosk();
  await first.session.start("en-US");
  first.session.onEvent("SessionStatusChanged", { session_id: "s1", status: "timed_out", end_reason: "timed_out" });
  assert.equal(first.store.get().screen, "ended");
  assert.equal(first.store.get().ended.title, "Sorry, nobody could answer");
  assert.deepEqual(first.finished, ["ended"]);

  const second = kiosk();
  await second.session.start("en-US");
  second.session.onEvent("SessionStatusChanged", { session_id: "s1", status: "cancelled", end_reason: "kiosk_cancelled" });
  assert.deepEqual([second.store.get().screen, second.finished], ["waiting", ["cancelled"]]);
});

test("a session already in progress is resumed from its status and order", async () => {
  const asked = serve({
    "POST /api/public/sessions/start": [409, { error: { code: "SESSION_IN_PROGRESS", message: "busy", details: { session_id: "s9" } } }],
    "GET /api/public/sessions/s9/status": [200, { session_id: "s9", status: "active", agent: null, video_channel: "ch-9" }],
    "GET /api/public/sessions/s9/order": [200, { lines: [], currency: "USD" }],
    "GET /api/public/menu": [200, { categories: [] }],
  });
  const { store, session, said } = kiosk();
  await session.start("en-US");
  assert.deepEqual([store.get().screen, store.get().sessionId], ["session", "s9"]);
  assert.deepEqual(store.get().order, { lines: [], currency: "USD" });
  assert.deepEqual(said, ["Someone is here to help you."]);
  assert.deepEqual(asked, [
    "POST /api/public/sessions/start",
    "GET /api/public/sessions/s9/status",
    "GET /api/public/sessions/s9/order",
    "GET /api/public/menu", // the menu beside the agent
  ]);
});

test("a refusal to start is thrown for the screen to word; the store stays between customers", async () => {
  serve({ "POST /api/public/sessions/start": [403, { error: { code: "OWNER_SUSPENDED", message: "Suspended." } }] });
  const { store, session } = kiosk();
  await assert.rejects(session.start("en-US"), (error) => error.code === "OWNER_SUSPENDED");
  assert.deepEqual([store.get().screen, store.get().sessionId], ["loading", null]);
});

test("a language chosen during the session: the words at once, the session's language on the server, the menu and the cart read in it", async () => {
  const asked = serve({
    "POST /api/public/sessions/start": [201, STARTED],
    "GET /api/public/menu": [200, { categories: [] }],
    "POST /api/public/sessions/s1/locale": [200, { session_id: "s1", customer_locale: "fr-FR" }],
    "GET /api/public/sessions/s1/status": [200, { session_id: "s1", status: "active", agent: { name: "Ada" }, video_channel: "ch-1" }],
    "GET /api/public/sessions/s1/order": [200, { lines: [], currency: "EUR" }],
  });
  const { store, session } = kiosk();
  await session.start("en-US");
  session.onEvent("SessionStatusChanged", { session_id: "s1", status: "active", agent: { name: "Ada" }, video_channel: "ch-1" });
  asked.length = 0;
  await session.changeLocale("fr-FR");
  assert.equal(store.get().locale, "fr-FR");
  assert.deepEqual(asked.slice(0, 2).sort(), ["GET /api/public/menu", "POST /api/public/sessions/s1/locale"]);
  assert.ok(asked.includes("GET /api/public/sessions/s1/order")); // the cart's words are the customer's language's
  asked.length = 0;
  await session.changeLocale("fr-FR"); // the same language: nothing to tell
  assert.deepEqual(asked, []);
});

test("a status read that answers after the status moved on is read again, never applied over the newer word", async () => {
  serve({ "POST /api/public/sessions/start": [201, STARTED] });
  const { store, session } = kiosk();
  await session.start("en-US"); // no place in line in the answer: the start reads the status itself
  /** @type {Array<() => void>} */
  const held = [];
  const reads = [{ status: "pending", queue: null }, { status: "active", agent: { name: "Ada" }, video_channel: "s1" }];
  const asked = [];
  globalThis.fetch = async (url) => {
    const path = new URL(url).pathname;
    asked.push(path);
    const body = path.endsWith("/status") ? { session_id: "s1", ...reads.shift() } : { lines: [], currency: "USD" };
    if (asked.length === 1) await new Promise((resolve) => held.push(() => resolve(undefined))); // answered late
    return answer(200, body);
  };
  const reading = session.refresh(); // e.g. the one after going back from the card step
  session.onEvent("SessionStatusChanged", { session_id: "s1", status: "active", agent: { name: "Ada" }, video_channel: "s1" });
  held.forEach((answer) => answer());
  await reading;
  // "pending" was true when the server read it, older than the event: the kiosk asks again.
  assert.deepEqual([store.get().status.status, store.get().screen], ["active", "session"]);
  assert.equal(asked.filter((path) => path.endsWith("/status")).length, 2);
});

test("a cart read that answers after the customer's newer cart does not draw the older one", async () => {
  serve({ "POST /api/public/sessions/start": [201, { ...STARTED, queue: { position: 1 } }] });
  const { store, session } = kiosk();
  await session.start("en-US");
  store.set(({ alone }) => ({ alone: { ...alone, on: true } }));
  /** @type {Array<() => void>} */
  const held = [];
  const carts = [{ lines: [], currency: "USD" }, { lines: [{ menu_item_id: "fries", quantity: 1 }], currency: "USD" }];
  globalThis.fetch = async (url) => {
    const path = new URL(url).pathname;
    const body = path.endsWith("/status") ? { session_id: "s1", status: "pending", queue: { position: 1 } } : carts.shift();
    if (path.endsWith("/order") && carts.length === 1) await new Promise((resolve) => held.push(() => resolve(undefined)));
    return answer(200, body);
  };
  const reading = session.refresh();
  while (!held.length) await new Promise((resolve) => setTimeout(resolve, 1)); // the cart read is on its way
  const newer = { lines: [{ menu_item_id: "fries", quantity: 1 }], currency: "USD" };
  store.set({ order: newer }); // the answer to the customer's own cart change (alone.js)
  held.forEach((answer) => answer());
  await reading;
  assert.deepEqual(store.get().order.lines, newer.lines);
});

test("a menu read again unchanged (after a cart change) leaves the drawn menu as it is", async () => {
  const menu = { categories: [{ id: "c1", name: "Burgers", menu_items: [] }] };
  serve({
    "POST /api/public/sessions/start": [201, { ...STARTED, queue: { position: 1 } }],
    "GET /api/public/menu": [200, menu],
  });
  const { store, session } = kiosk();
  await session.start("en-US");
  await session.loadMenu();
  const drawn = store.get().menu;
  assert.deepEqual(drawn.body, menu);
  session.onEvent("OrderUpdated", { session_id: "s1", lines: [], currency: "USD" }); // reads the menu again
  await session.loadMenu();
  assert.equal(store.get().menu, drawn); // the same object: its watchers draw nothing anew
  serve({ "GET /api/public/menu": [200, { categories: [] }] }); // an item sold out: a new menu
  await session.loadMenu();
  assert.deepEqual(store.get().menu.body, { categories: [] });
});

test("paying alone is nobody's arrival: no agent is said to be here, until one joins", async () => {
  serve({ "POST /api/public/sessions/start": [201, { ...STARTED, queue: { position: 1 } }], "GET /api/public/menu": [200, { categories: [] }] });
  const { store, session, said } = kiosk();
  await session.start("en-US");
  store.set(({ alone }) => ({ alone: { ...alone, on: true } }));
  session.onEvent("SessionStatusChanged", { session_id: "s1", status: "payment", agent: null, video_channel: null });
  assert.equal(store.get().screen, "session");
  assert.deepEqual(said, []);
  session.onEvent("SessionStatusChanged", { session_id: "s1", status: "active", agent: { name: "Ada" }, video_channel: "ch-1" });
  assert.deepEqual(said, ["Ada has joined you and has your order."]);
});
