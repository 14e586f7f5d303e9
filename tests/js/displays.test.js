// The screens' merge rules (static/kitchen/tickets.js, static/board/numbers.js): one entry per
// order whatever mix of messages and polls brought it, the newer change winning.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyNumber, columns, mergeBoard } from "../../static/board/numbers.js";
import { ageOf, applyTicket, elapsed, mergeSnapshot, ordered } from "../../static/kitchen/tickets.js";

const at = (seconds) => new Date(Date.UTC(2026, 0, 1, 12, 0, seconds)).toISOString();
const ticket = (id, status, updated, paid = 0) => ({
  id,
  number: `N${id}`,
  status,
  dining: null,
  lines: [],
  paid_at: at(paid),
  updated_at: at(updated),
});

test("a ticket heard by message and read by a poll is shown once", () => {
  let { tickets, added } = applyTicket({}, ticket("1", "confirmed", 1), 1000);
  assert.equal(added, true);
  const merged = mergeSnapshot(tickets, [ticket("1", "confirmed", 1)], 900, 2000);
  assert.deepEqual(Object.keys(merged.tickets), ["1"]);
  assert.deepEqual(merged.added, []);
  ({ tickets, added } = applyTicket(merged.tickets, ticket("1", "confirmed", 1), 3000));
  assert.equal(added, false);
  assert.equal(Object.keys(tickets).length, 1);
});

test("an older poll answer neither undoes a move nor drops a ticket heard after it was asked", () => {
  let { tickets } = applyTicket({}, ticket("1", "ready", 5), 1000);
  ({ tickets } = applyTicket(tickets, ticket("2", "confirmed", 6), 2000));
  const merged = mergeSnapshot(tickets, [ticket("1", "preparing", 3)], 1500, 2500);
  assert.equal(merged.tickets["1"].ticket.status, "ready");
  assert.ok(merged.tickets["2"], "heard after the poll was asked: kept");
  const later = mergeSnapshot(merged.tickets, [], 3000, 3500);
  assert.deepEqual(later.tickets, {}, "a later poll without them drops both");
});

test("completed and refunded tickets leave; the oldest paid comes first; age and colour", () => {
  let { tickets } = applyTicket({}, ticket("1", "confirmed", 1, 10), 0);
  ({ tickets } = applyTicket(tickets, ticket("2", "confirmed", 1, 5), 0));
  assert.deepEqual(ordered(tickets).map((t) => t.id), ["2", "1"]);
  ({ tickets } = applyTicket(tickets, ticket("1", "completed", 2, 10), 0));
  assert.deepEqual(Object.keys(tickets), ["2"]);
  const settings = { ticket_warn_seconds: 60, ticket_late_seconds: 120 };
  const paid = Date.parse(at(0));
  assert.equal(ageOf(ticket("3", "confirmed", 0), paid + 59_000, settings), "fresh");
  assert.equal(ageOf(ticket("3", "confirmed", 0), paid + 60_000, settings), "warn");
  assert.equal(ageOf(ticket("3", "confirmed", 0), paid + 120_000, settings), "late");
  assert.equal(elapsed(ticket("3", "confirmed", 0), paid + 187_000), "3:07");
});

const number = (id, status, changed) => ({ order_id: id, number: `N${id}`, status, changed_at: at(changed) });

test("the board highlights a number just ready, drops it when gone or too old", () => {
  const settings = { ready_seconds: 30, ready_highlight_seconds: 5 };
  const now = Date.parse(at(10));
  let { numbers, ready } = applyNumber({}, number("1", "preparing", 1), now);
  assert.equal(ready, false);
  ({ numbers, ready } = applyNumber(numbers, number("1", "ready", 10), now));
  assert.equal(ready, true);
  assert.deepEqual(columns(numbers, now + 1000, settings), { preparing: [], ready: [{ number: "N1", fresh: true }] });
  assert.deepEqual(columns(numbers, now + 6000, settings).ready, [{ number: "N1", fresh: false }]);
  assert.deepEqual(columns(numbers, now + 31_000, settings).ready, [], "ready longer than the owner's time");
  ({ numbers } = applyNumber(numbers, number("1", "gone", 12), now));
  assert.deepEqual(numbers, {});
});

test("a poll finding a shown number ready counts it as just ready, once", () => {
  const now = Date.parse(at(10));
  const { numbers } = applyNumber({}, number("1", "preparing", 1), now);
  const first = mergeBoard(numbers, [number("1", "ready", 9)], now - 1, now);
  assert.deepEqual(first.ready.map((n) => n.order_id), ["1"]);
  const second = mergeBoard(first.numbers, [number("1", "ready", 9)], now + 1, now + 2);
  assert.deepEqual(second.ready, []);
  assert.equal(Object.keys(second.numbers).length, 1);
});
