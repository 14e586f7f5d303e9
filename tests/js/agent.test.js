// The agent dashboard's logic that is not DOM: the queue, the cart, the payment box, the words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cartRefusal, changeLine, finishText, linesOf, linesToSend, paymentView } from "../../static/agent/cart-state.js";
import { checkChoices, rule } from "../../static/agent/modifiers.js";
import { addCard, duration, EMPTY_QUEUE, mergeSnapshot, removeCard, waitedSeconds } from "../../static/agent/queue-state.js";
import { createAgentStore, cartLocked, NO_SESSION } from "../../static/agent/state.js";
import { acceptRefusal, goneReason, liveLabel, signInRefusal, tooManyAttempts } from "../../static/agent/words.js";

const incoming = (id, waiting = 0) => ({ id, kiosk: { name: `Kiosk ${id}` }, business: { name: "Burger Barn" }, waiting_seconds: waiting });

test("cards are added once, removed with the time they left, and wait from their arrival", () => {
  let queue = addCard(EMPTY_QUEUE, incoming("a", 5), 1_000);
  assert.equal(addCard(queue, incoming("a"), 2_000), queue);
  assert.equal(waitedSeconds(queue.cards[0], 66_000), 70);
  assert.equal(waitedSeconds(addCard(EMPTY_QUEUE, incoming("b"), 1_500).cards[0], 1_000), 0); // the clock's last tick came before the card
  queue = removeCard(queue, "a", 3_000);
  assert.deepEqual(queue, { cards: [], goneAt: { a: 3_000 } });
  assert.equal(removeCard(queue, "a", 4_000), queue);
  assert.deepEqual([duration(0), duration(70), duration(600)], ["0:00", "1:10", "10:00"]);
});

test("a poll answer is the truth as of when it was asked, not after", () => {
  let queue = addCard(EMPTY_QUEUE, incoming("old"), 1_000); // there before the poll was asked
  queue = addCard(queue, incoming("pushed"), 5_000); // pushed by the socket after it was asked
  queue = removeCard(addCard(queue, incoming("claimed"), 1_000), "claimed", 4_500); // claimed meanwhile
  const { queue: merged, added } = mergeSnapshot(queue, [incoming("claimed"), incoming("new")], 4_000, 6_000);
  assert.deepEqual(merged.cards.map((card) => card.session.id), ["pushed", "new"]);
  assert.deepEqual(added.map((session) => session.id), ["new"]);
  assert.equal(merged.goneAt.old, 6_000);
});

test("the cart: lines read back, changed, dropped at zero, and sent without their labels", () => {
  const order = {
    lines: [{ menu_item_id: "m1", name: "Burger", quantity: 1, unit_price_cents: 1000, modifiers: [{ group: "Size", value: "L" }] }],
    subtotal_cents: 1000,
    tax_cents: 0,
    total_cents: 1000,
  };
  const lines = linesOf(order);
  assert.deepEqual(lines, [{ menu_item_id: "m1", name: "Burger", quantity: 1, modifier_option_ids: [], modifiers: [{ group: "Size", value: "L" }], notes: "" }]);
  assert.deepEqual(linesOf(null), []);
  const more = changeLine(lines, 0, { quantity: 2, notes: "well done" });
  assert.deepEqual([more[0].quantity, more[0].notes, lines[0].quantity], [2, "well done", 1]);
  assert.deepEqual(changeLine(more, 0, { quantity: 0 }), []);
  assert.deepEqual(linesToSend(more), [{ menu_item_id: "m1", quantity: 2, modifier_option_ids: [], notes: "well done" }]);
});

test("the payment box follows the session status and the order's", () => {
  assert.deepEqual(paymentView("active", null), { state: "none", text: "" });
  assert.equal(paymentView("payment", { status: "pending" }).state, "waiting");
  assert.equal(paymentView("payment", { status: "failed" }).state, "declined");
  const store = createAgentStore();
  assert.equal(cartLocked(store.get()), false);
  store.set({ session: { id: "s", status: "payment" } });
  assert.equal(cartLocked(store.get()), true);
  store.set(NO_SESSION);
  assert.equal(store.get().session, null);
});

test("a session's end in words, with the paid order when there is one", () => {
  assert.equal(finishText({ status: "failed", duration_seconds: 75 }), "Session failed after 1:15.");
  const paid = finishText({ status: "completed", duration_seconds: 5 }, { status: "paid", paid: true, order_number: "A-7", total_cents: 1200, currency: "USD" });
  assert.match(paid, /^Paid: order A-7, .*12\.00.*\. Session completed after 0:05\.$/);
  assert.equal(finishText({ status: "completed" }, { status: "draft", paid: false }), "Session completed after 0:00.");
});

test("modifier rules and choices", () => {
  const size = { id: "g1", name: "Size", required: true, min: 0, max: 1, options: [] };
  const sauces = { id: "g2", name: "Sauces", required: false, min: 0, max: 2, options: [] };
  assert.deepEqual([rule(size), rule(sauces)], ["choose one", "optional, up to 2"]);
  const none = checkChoices([size, sauces], () => []);
  assert.deepEqual(none.problems, ["Size: choose one."]);
  const ticked = { g1: [{ id: "o1", name: "Large" }], g2: [{ id: "o2", name: "Ketchup" }, { id: "o3", name: "Mayo" }, { id: "o4", name: "Mustard" }] };
  const chosen = checkChoices([size, sauces], (group) => ticked[group.id]);
  assert.deepEqual(chosen.problems, ["Sauces: at most 2."]);
  assert.deepEqual(chosen.labels[0], { group: "Size", value: "Large" });
});

test("sign-in, accepting, the live link and the queue in words", () => {
  assert.equal(signInRefusal({ code: "INVALID_CREDENTIALS" }), "The email or password is incorrect.");
  assert.equal(signInRefusal({ code: "OTHER", message: "Odd." }), "Odd.");
  assert.deepEqual([tooManyAttempts(2), tooManyAttempts(1), tooManyAttempts(0)], [
    "Too many attempts. Try again in 2 seconds.",
    "Too many attempts. Try again in 1 second.",
    "You can try again now.",
  ]);
  assert.equal(acceptRefusal({ code: "SESSION_ALREADY_ACCEPTED" }, "Front counter"), "Front counter: taken by another agent.");
  assert.equal(acceptRefusal({ code: "SESSION_NOT_FOUND" }, "Front counter"), "Front counter: the customer has left.");
  assert.equal(acceptRefusal({ code: "X", status: 401 }, "Front counter"), "");
  assert.match(acceptRefusal({ code: "AGENT_AT_CAPACITY" }, "Front counter"), /as many customers as you can/);
  assert.match(acceptRefusal({ code: "AGENT_IN_CONVERSATION" }, "Front counter"), /video conversation/);
  assert.equal(
    cartRefusal({ status: 409, code: "ORDER_LOCKED" }),
    "The change was not saved: the cart is locked while the customer pays. The cart shows what was last saved.",
  );
  assert.deepEqual([liveLabel("connected"), goneReason("claimed"), goneReason("withdrawn")], [
    "Live",
    "taken by another agent",
    "withdrawn by the kiosk",
  ]);
});
