// The kitchen's tickets, free of the DOM (unit-tested under Node: tests/js/): one entry per order
// id, so a ticket heard over the socket and read again by a poll is shown once. A message and a
// poll may cross: the newer `updated_at` wins, and a poll drops only the tickets seen before it
// was asked (a ticket that arrived meanwhile stays until the next poll confirms or drops it).

/**
 * @typedef {{name: string, quantity: number, modifiers: {group: string, value: string}[], notes: string}} TicketLine
 * @typedef {{id: string, number: string, status: string, dining: string | null, lines: TicketLine[], paid_at: string, updated_at: string}} Ticket
 * @typedef {Record<string, {ticket: Ticket, seenAt: number}>} Tickets
 */

export const OPEN = new Set(["confirmed", "preparing", "ready"]);
/** What a tap does to a ticket in each status. @type {Record<string, string>} */
export const NEXT = { confirmed: "preparing", preparing: "ready", ready: "completed" };

/** @param {Ticket} a @param {Ticket} b */
const newer = (a, b) => Date.parse(a.updated_at) >= Date.parse(b.updated_at);

/**
 * A ticket as the server says it now (message or move answer).
 * @param {Tickets} tickets @param {Ticket} ticket @param {number} now
 * @returns {{tickets: Tickets, added: boolean}}
 */
export function applyTicket(tickets, ticket, now) {
  const known = tickets[ticket.id];
  if (known && !newer(ticket, known.ticket)) return { tickets, added: false };
  const next = { ...tickets };
  if (OPEN.has(ticket.status)) next[ticket.id] = { ticket, seenAt: now };
  else delete next[ticket.id];
  return { tickets: next, added: !known && OPEN.has(ticket.status) };
}

/**
 * The open tickets a poll asked at `askedAt` read.
 * @param {Tickets} tickets @param {Ticket[]} list @param {number} askedAt @param {number} now
 * @returns {{tickets: Tickets, added: Ticket[]}}
 */
export function mergeSnapshot(tickets, list, askedAt, now) {
  /** @type {Tickets} */
  const next = {};
  const added = [];
  const listed = new Set(list.map((ticket) => ticket.id));
  for (const [id, entry] of Object.entries(tickets)) {
    if (!listed.has(id) && entry.seenAt > askedAt) next[id] = entry; // heard after the poll was asked
  }
  for (const ticket of list) {
    const known = tickets[ticket.id];
    if (known && !newer(ticket, known.ticket)) next[ticket.id] = known;
    else next[ticket.id] = { ticket, seenAt: now };
    if (!known) added.push(ticket);
  }
  return { tickets: next, added };
}

/** Oldest paid first. @param {Tickets} tickets @returns {Ticket[]} */
export const ordered = (tickets) =>
  Object.values(tickets)
    .map((entry) => entry.ticket)
    .sort((a, b) => Date.parse(a.paid_at) - Date.parse(b.paid_at) || Number(a.id) - Number(b.id));

/**
 * "fresh", "warn" or "late" by the time since it was paid (the display's settings).
 * @param {Ticket} ticket @param {number} now @param {{ticket_warn_seconds: number, ticket_late_seconds: number}} settings
 */
export function ageOf(ticket, now, settings) {
  const seconds = (now - Date.parse(ticket.paid_at)) / 1000;
  if (seconds >= settings.ticket_late_seconds) return "late";
  if (seconds >= settings.ticket_warn_seconds) return "warn";
  return "fresh";
}

/** "3:07" since it was paid. @param {Ticket} ticket @param {number} now */
export function elapsed(ticket, now) {
  const seconds = Math.max(0, Math.floor((now - Date.parse(ticket.paid_at)) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
