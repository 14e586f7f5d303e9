// The sessions an agent holds beside the conversation, as cards: kept across reads of what is
// held, what each card says (paying with the reader's status, declined, paid, a chat with its
// unread count), and the keys that move between them and accept an offer.
import assert from "node:assert/strict";
import { test } from "node:test";

import { acceptRefusal } from "../../static/agent/words.js";
import {
  cardView,
  cartLockedWords,
  keyAction,
  KEYS,
  markSeen,
  mergeHeld,
  outcomeIds,
  outcomesKey,
  outcomeOf,
  restoredOutcomes,
  stepView,
  unread,
  withCardMessages,
  withOrder,
} from "../../static/agent/held-state.js";

const session = (id, overrides = {}) => ({
  id,
  status: "active",
  medium: "video",
  kiosk: { name: `Kiosk ${id}` },
  business: { name: "Burger Barn" },
  video_channel: id,
  ...overrides,
});
const read = (id, overrides = {}, extra = {}) => ({ session: session(id, overrides), order: null, payment: null, ...extra });
const message = (id, sender, text = "hi", sessionId = "chat") => ({ id: String(id), session_id: sessionId, sender, sender_name: null, text, created_at: "2026-11-27T12:00:00Z" });

test("the session in hand is never a card; the others are, in the server's order", () => {
  const { cards, left } = mergeHeld([], [read("video"), read("chat", { medium: "chat" }), read("paying", { status: "payment" })], "video");
  assert.deepEqual(cards.map((card) => card.session.id), ["chat", "paying"]);
  assert.deepEqual(left, []);
});

test("a card keeps its chat, draft and what was seen across reads; a session that left is named once", () => {
  let { cards } = mergeHeld([], [read("chat", { medium: "chat" }), read("paying", { status: "payment" })], null);
  cards = cards.map((card) => (card.session.id === "chat" ? { ...withCardMessages(card, [message(1, "kiosk")]), chat: { ...withCardMessages(card, [message(1, "kiosk")]).chat, draft: "Sure" } } : card));
  const again = mergeHeld(cards, [read("chat", { medium: "chat" })], null);
  const chat = again.cards.find((card) => card.session.id === "chat");
  assert.equal(chat.chat.draft, "Sure");
  assert.equal(chat.chat.messages.length, 1);
  assert.deepEqual(again.left, ["paying"]); // its outcome is read next
  assert.ok(again.cards.some((card) => card.session.id === "paying")); // and it stays until then
  const withOutcome = again.cards.map((card) => (card.session.id === "paying" ? { ...card, outcome: "paid:Paid." } : card));
  assert.deepEqual(mergeHeld(withOutcome, [read("chat", { medium: "chat" })], null).left, []); // named once
});

test("a card that comes to hand leaves the cards", () => {
  const { cards } = mergeHeld([], [read("a", { status: "payment" }), read("b", { medium: "chat" })], null);
  assert.deepEqual(mergeHeld(cards, [read("a", { status: "payment" }), read("b", { medium: "chat" })], "a").cards.map((card) => card.session.id), ["b"]);
});

test("a chat card counts the customer's messages not yet seen nor answered; the agent's own are never unread", () => {
  const [card] = mergeHeld([], [read("chat", { medium: "chat" })], null).cards;
  const written = withCardMessages(card, [message(1, "kiosk"), message(2, "kiosk")]);
  assert.equal(unread(written), 2);
  assert.equal(unread(withCardMessages(written, [message(3, "agent")])), 0); // answered (also after a reload: nothing seen yet)
  assert.equal(unread(withCardMessages(written, [message(3, "agent"), message(4, "kiosk")])), 1);
  assert.deepEqual(cardView(written), { state: "chat", text: "2 unread messages" });
  assert.equal(unread(markSeen(written)), 0);
  assert.deepEqual(cardView(markSeen(written)), { state: "chat", text: "Chatting: nothing unread" });
  assert.equal(withCardMessages(written, [message(2, "kiosk")]), written); // a message shows once
  assert.equal(withCardMessages(written, [message(9, "kiosk", "x", "other")]), written); // another session's: not here
});

test("a paying card says the reader's status, a declined one that the customer may try another card", () => {
  const reader = { label: "Counter reader", status: "online", action_status: "in_progress" };
  const paying = mergeHeld([], [read("p", { status: "payment" }, { order: { status: "pending", lines: [], subtotal_cents: 0, tax_cents: 0, total_cents: 0 }, payment: { status: "requires_payment_method", method: "card_present", reader } })], null).cards[0];
  assert.equal(cardView(paying).state, "paying");
  assert.match(cardView(paying).text, /reader/i);
  const declined = { ...paying, order: { ...paying.order, status: "failed" }, payment: { status: "failed", failure_code: "expired_card", method: "card" } };
  assert.equal(cardView(declined).state, "declined");
  assert.match(cardView(declined).text, /another card/);
  assert.deepEqual(cardView({ ...paying, outcome: "paid:Paid: order A-12, $11.42." }), { state: "paid", text: "Paid: order A-12, $11.42." });
  assert.equal(cardView({ ...paying, outcome: "Session abandoned after 1:00." }).state, "ended");
});

test("next and previous go round the session in hand and the held cards; ended cards are skipped", () => {
  const { cards } = mergeHeld([], [read("a", { status: "payment" }), read("b", { medium: "chat" }), read("c", { status: "payment" })], null);
  const withEnded = cards.map((card) => (card.session.id === "c" ? { ...card, outcome: "gone" } : card));
  assert.equal(stepView(withEnded, null, 1), "a");
  assert.equal(stepView(withEnded, "a", 1), "b");
  assert.equal(stepView(withEnded, "b", 1), null); // back to the conversation
  assert.equal(stepView(withEnded, null, -1), "b");
  assert.equal(stepView([], null, 1), null);
  assert.equal(stepView(withEnded, "gone-id", 1), "a"); // a card no longer there: from the start
});

test("the keys: Alt with a letter, whatever field has the focus; nothing else is taken", () => {
  const press = (code, mods = {}) => keyAction({ altKey: true, ctrlKey: false, metaKey: false, shiftKey: false, code, ...mods });
  assert.equal(press("KeyA"), "accept");
  assert.equal(press("KeyJ"), "next");
  assert.equal(press("KeyK"), "previous");
  assert.equal(press("KeyC"), "conversation");
  assert.equal(press("KeyA", { altKey: false }), "");
  assert.equal(press("KeyA", { ctrlKey: true }), "");
  assert.equal(press("Digit1"), ""); // Alt+digit switches the browser's tabs
  assert.deepEqual(KEYS, { accept: "Alt+A", next: "Alt+J", previous: "Alt+K", conversation: "Alt+C" });
});

test("the two capacity refusals are said in the agent's words, with the number of seats", () => {
  assert.equal(
    acceptRefusal({ code: "AGENT_AT_CAPACITY", status: 409, details: { capacity: 3, sessions_held: 3 } }, "Front counter"),
    "You are serving as many customers as you can at once (3): finish one before accepting another.",
  );
  assert.equal(
    acceptRefusal({ code: "AGENT_IN_CONVERSATION", status: 409, details: { capacity: 3, sessions_held: 2 } }, "Front counter"),
    "You are in a video conversation: send it to payment or end it before accepting another video customer.",
  );
});

test("what became of a session from its read (SessionUpdated, or a read once): nothing while held, a paid end, an end, a colleague", () => {
  assert.equal(outcomeOf(read("paying", { status: "payment" })), "");
  assert.equal(outcomeOf(read("chat", { medium: "chat" })), "");
  const order = { order_number: 42, total_cents: 1088, currency: "USD", paid: true, status: "confirmed", lines: [] };
  const paid = outcomeOf(read("paying", { status: "completed", duration_seconds: 90 }, { order }));
  assert.match(paid, /^paid:Paid: order 42, \$10\.88\. Session completed after/);
  assert.equal(cardView({ ...newCardFor("paying"), outcome: paid }).state, "paid");
  const left = outcomeOf(read("chat", { status: "abandoned", duration_seconds: 30 }));
  assert.match(left, /^Session abandoned after/);
  assert.equal(cardView({ ...newCardFor("chat"), outcome: left }).state, "ended");
  assert.equal(outcomeOf(read("chat", { handed_over_to: { name: "Bo" } })), "Now served by Bo.");
});

const newCardFor = (id) => mergeHeld([], [read(id)], null).cards[0];

test("an opened card's cart follows the server's order unless the agent's change is on its way; locked while the customer pays", () => {
  const line = { menu_item_id: "7", name: "Cola", quantity: 1, unit_price_cents: 250, modifiers: [] };
  const order = (quantity) => ({ lines: [{ ...line, quantity }], subtotal_cents: 250 * quantity, tax_cents: 0, total_cents: 250 * quantity });
  const card = mergeHeld([], [read("chat", { medium: "chat" }, { order: order(1) })], null).cards[0];
  assert.deepEqual(card.cart.lines.map((l) => l.quantity), [1]);
  assert.deepEqual(withOrder(card, order(3)).cart.lines.map((l) => l.quantity), [3]); // the customer changed it
  const editing = { ...card, cart: { ...card.cart, lines: [{ ...card.cart.lines[0], quantity: 2 }], saving: true } };
  assert.deepEqual(withOrder(editing, order(3)).cart.lines.map((l) => l.quantity), [2]); // the agent's change stays
  assert.equal(cartLockedWords(card), "");
  assert.equal(cartLockedWords({ ...card, session: { ...card.session, status: "payment" } }), "The cart is locked while the customer pays.");
  assert.equal(cartLockedWords({ ...card, outcome: "Session abandoned after 1 min." }), "This session is no longer with you.");
});

test("a reload brings back an outcome card only as the server reads the session now", () => {
  const paidOrder = { id: "o7", number: "7", status: "paid", paid: true, total_cents: 380, currency: "usd", lines: [] };
  const reads = [
    read("paid", { status: "completed", duration_seconds: 60 }, { order: paidOrder }),
    read("held-again", { status: "payment" }), // held again (a payment taken back): the held list's, not an outcome
    read("ended", { status: "abandoned", duration_seconds: 5 }),
    read("in-hand", { status: "completed" }),
    read("drawn", { status: "completed" }),
  ];
  const drawn = mergeHeld([], [read("drawn")], null).cards.map((card) => ({ ...card, outcome: "Ended." }));
  const cards = restoredOutcomes(drawn, reads, "in-hand");
  assert.deepEqual(cards.map((card) => card.session.id), ["paid", "ended"]);
  assert.equal(cardView(cards[0]).state, "paid");
  assert.equal(cardView(cards[1]).state, "ended");
  assert.ok(cards.every((card) => card.outcome === outcomeOf(reads.find((r) => r.session.id === card.session.id))));
});

test("the tab keeps the ids of the outcome cards shown, per agent", () => {
  const cards = mergeHeld([], [read("a"), read("b", { medium: "chat" })], null).cards.map((card) => (card.session.id === "a" ? { ...card, outcome: "paid:Paid." } : card));
  assert.deepEqual(outcomeIds(cards), ["a"]); // a card still held is not an outcome
  assert.deepEqual(outcomeIds(cards.filter((card) => card.session.id !== "a")), []); // dismissed: forgotten
  assert.notEqual(outcomesKey("1"), outcomesKey("2"));
});
