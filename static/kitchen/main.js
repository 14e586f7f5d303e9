// The kitchen display: who this screen is, its open tickets from GET /api/displays/kitchen/tickets
// and the kitchen channel (TicketChanged), a chime for each new one, and a tap (or Enter/Space on
// the focused button) that moves a ticket on: preparing, ready, completed; "Reprint" prints its
// ticket again on the printers that printed it, marked REPRINT. The printers that
// cannot print come with the tickets and PrintersChanged; while there are any, the screen reads
// them again every few seconds (their waiting counts grow without a message each).
import { interpolate, pgettext } from "../common/gettext.js";
import { Chime } from "../common/chime.js";
import { DisplayApi } from "../common/display-api.js";
import { displayApp } from "../common/display-app.js";
import { asFailure, logFailure } from "../common/report.js";
import { announce } from "../common/ui.js";
import { createKitchenStore } from "./state.js";
import { applyTicket, mergeSnapshot, NEXT } from "./tickets.js";
import { renderKitchen } from "./views.js";

const api = new DisplayApi("kitchen");
const store = createKitchenStore();
const chime = new Chime();
window.setInterval(() => store.set({ now: Date.now() }), 1000);

/** @param {import("./tickets.js").Ticket[]} tickets */
function arrived(tickets) {
  if (!tickets.length) return;
  if (store.get().sound) chime.play();
  announce(interpolate(pgettext("display", "New order %(numbers)s."), { numbers: tickets.map((ticket) => ticket.number).join(", ") }));
}

/** @param {import("./tickets.js").Ticket} ticket */
function heard(ticket) {
  const { tickets, added } = applyTicket(store.get().tickets, ticket, Date.now());
  store.set({ tickets });
  if (added) arrived([ticket]);
}

const app = displayApp({
  api,
  store,
  screen: "kitchen",
  cannotStart: (reason) => interpolate(pgettext("display", "The kitchen display could not start: %(reason)s"), { reason }),
  title: (me) => interpolate(pgettext("display", "Kitchen: %(business)s"), { business: me.business.name }),
  snapshotPath: "kitchen/tickets",
  applySnapshot(body, askedAt) {
    const { tickets, added } = mergeSnapshot(store.get().tickets, body.tickets, askedAt, Date.now());
    store.set({ tickets, printers: body.printers || [] });
    arrived(added);
  },
  events: {
    TicketChanged: (data) => heard(data.ticket),
    PrintersChanged: (data) => store.set({ printers: data.printers }),
  },
  chime,
  chimeWhenTurnedOn: true,
});

/** @param {import("./tickets.js").Ticket} ticket */
async function move(ticket) {
  const status = NEXT[ticket.status];
  store.set(({ moving }) => ({ moving: { ...moving, [ticket.id]: true } }));
  try {
    heard(await api.call(`kitchen/tickets/${ticket.id}/status`, { method: "POST", body: { status } }));
    store.set({ alert: "" });
    announce(interpolate(pgettext("display", "Order %(number)s: %(status)s."), { number: ticket.number, status }));
  } catch (caught) {
    const error = asFailure(caught);
    store.set({ alert: interpolate(pgettext("display", "Order %(number)s could not be moved: %(reason)s"), { number: ticket.number, reason: error.message }) });
    if (error.status === 409 || error.status === 404) app.poll(Date.now()); // someone else moved it
  } finally {
    store.set(({ moving }) => {
      const rest = { ...moving };
      delete rest[ticket.id];
      return { moving: rest };
    });
  }
}

let lastPrinterPoll = 0;
window.setInterval(() => {
  const { screen, printers, me } = store.get();
  const every = me ? me.settings.poll_seconds * 1000 : 0;
  if (screen === "kitchen" && printers.length && Date.now() - lastPrinterPoll >= every) {
    lastPrinterPoll = Date.now();
    app.poll(lastPrinterPoll).catch((error) => logFailure("reading the printers", error));
  }
}, 1000);

/** @param {import("./tickets.js").Ticket} ticket */
async function reprint(ticket) {
  try {
    await api.call(`kitchen/tickets/${ticket.id}/reprint`, { method: "POST", body: {} });
    store.set({ alert: "" });
    announce(interpolate(pgettext("display", "Order %(number)s: printing again."), { number: ticket.number }));
  } catch (caught) {
    store.set({
      alert: interpolate(pgettext("display", "Order %(number)s could not be printed again: %(reason)s"), {
        number: ticket.number,
        reason: asFailure(caught).message,
      }),
    });
  }
}

renderKitchen(store, move, reprint);
app.start().catch((error) => logFailure("starting the kitchen display", error));
