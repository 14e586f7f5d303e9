// The board's numbers, free of the DOM (unit-tested under Node: tests/js/): one entry per order,
// the newer `changed_at` winning when a message and a poll cross. A number is highlighted for a
// while after it became ready (as this screen saw it), and leaves when completed or once it has
// been ready longer than the owner's time.

/**
 * @typedef {{order_id: string, number: string, status: string, changed_at: string}} BoardNumber
 * @typedef {Record<string, {entry: BoardNumber, seenAt: number, readySince: number | null}>} Numbers
 * @typedef {{number: string, fresh: boolean}} ShownNumber a number in a column, `fresh` highlighted
 */

/** @param {BoardNumber} a @param {BoardNumber} b */
const newer = (a, b) => Date.parse(a.changed_at) >= Date.parse(b.changed_at);

/**
 * @param {Numbers} numbers @param {BoardNumber} entry @param {number} now
 * @returns {{numbers: Numbers, ready: boolean}} `ready`: it has just become ready
 */
export function applyNumber(numbers, entry, now) {
  const known = numbers[entry.order_id];
  if (known && !newer(entry, known.entry)) return { numbers, ready: false };
  const next = { ...numbers };
  if (entry.status !== "preparing" && entry.status !== "ready") {
    delete next[entry.order_id];
    return { numbers: next, ready: false };
  }
  const wasReady = Boolean(known && known.entry.status === "ready");
  const ready = entry.status === "ready" && !wasReady;
  const readySince = entry.status !== "ready" ? null : wasReady ? known.readySince : now;
  next[entry.order_id] = { entry, seenAt: now, readySince };
  return { numbers: next, ready };
}

/**
 * @param {Numbers} numbers @param {BoardNumber[]} list @param {number} askedAt @param {number} now
 * @returns {{numbers: Numbers, ready: BoardNumber[]}}
 */
export function mergeBoard(numbers, list, askedAt, now) {
  /** @type {Numbers} */
  let next = {};
  const ready = [];
  const listed = new Set(list.map((entry) => entry.order_id));
  for (const [id, known] of Object.entries(numbers)) {
    if (listed.has(id) || known.seenAt > askedAt) next[id] = known;
  }
  for (const entry of list) {
    const applied = applyNumber(next, entry, now);
    next = applied.numbers;
    if (applied.ready && numbers[entry.order_id]) ready.push(entry); // on the board already: it just turned ready
  }
  return { numbers: next, ready };
}

/**
 * The two columns at `now`: ready numbers older than `readySeconds` left out (by the server's
 * time of the change), `fresh` ready ones highlighted.
 * @param {Numbers} numbers @param {number} now @param {{ready_seconds: number, ready_highlight_seconds: number}} settings
 * @returns {{preparing: ShownNumber[], ready: ShownNumber[]}}
 */
export function columns(numbers, now, settings) {
  const all = Object.values(numbers).sort((a, b) => Date.parse(a.entry.changed_at) - Date.parse(b.entry.changed_at));
  const preparing = all.filter((n) => n.entry.status === "preparing").map((n) => ({ number: n.entry.number, fresh: false }));
  const ready = all
    .filter((n) => n.entry.status === "ready" && now - Date.parse(n.entry.changed_at) < settings.ready_seconds * 1000)
    .map((n) => ({ number: n.entry.number, fresh: n.readySince !== null && now - n.readySince < settings.ready_highlight_seconds * 1000 }));
  return { preparing, ready };
}
