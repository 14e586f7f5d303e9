// The kitchen display's printer alert: its words, and when a waiting ticket counts as late.
import assert from "node:assert/strict";
import { test } from "node:test";

import { printerLines } from "../../static/kitchen/printers.js";

const NOW = Date.parse("2026-03-01T12:10:00Z");

test("a printer that cannot print says why and how many tickets wait", () => {
  const lines = printerLines(
    [
      { id: "4", name: "Bar", state: "paper_out", waiting: 3, oldest_waiting_at: "2026-03-01T12:09:30Z" },
      { id: "5", name: "Grill", state: "offline", waiting: 1, oldest_waiting_at: "2026-03-01T12:09:59Z" },
      { id: "6", name: "Pass", state: "cover_open", waiting: 0, oldest_waiting_at: null },
    ],
    NOW,
    120,
  );
  assert.deepEqual(lines, [
    { id: "4", text: "Kitchen printer “Bar” out of paper: 3 tickets waiting", late: false },
    { id: "5", text: "Kitchen printer “Grill” offline: 1 ticket waiting", late: false },
    { id: "6", text: "Kitchen printer “Pass” open (cover): 0 tickets waiting", late: false },
  ]);
});

test("a ticket waiting longer than the set time makes the line late", () => {
  const [line] = printerLines(
    [{ id: "4", name: "Bar", state: "offline", waiting: 2, oldest_waiting_at: "2026-03-01T12:06:30Z" }],
    NOW,
    120,
  );
  assert.equal(line.late, true);
  assert.equal(line.text, "Kitchen printer “Bar” offline: 2 tickets waiting (the oldest for 3 min: check the screen, not the paper)");
});
