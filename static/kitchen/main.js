// The kitchen display: who this screen is, its open tickets from GET /api/displays/kitchen/tickets
// and the kitchen channel (TicketChanged), a chime for each new one, and a tap (or Enter/Space on
// the focused button) that moves a ticket on: preparing, ready, completed.
import { Chime } from "../common/chime.js";
import { DisplayApi } from "../common/display-api.js";
import { DisplayFeed } from "../common/display-feed.js";
import { logFailure } from "../common/report.js";
import { announce, byId } from "../common/ui.js";
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
  announce(`New order ${tickets.map((ticket) => ticket.number).join(", ")}.`);
}

/** @param {import("./tickets.js").Ticket} ticket */
function heard(ticket) {
  const { tickets, added } = applyTicket(store.get().tickets, ticket, Date.now());
  store.set({ tickets });
  if (added) arrived([ticket]);
}

/** @param {number} askedAt */
async function poll(askedAt) {
  try {
    const body = await api.call("kitchen/tickets");
    const { tickets, added } = mergeSnapshot(store.get().tickets, body.tickets, askedAt, Date.now());
    store.set({ tickets, alert: "" });
    arrived(added);
  } catch (error) {
    if (error.status === 401 || error.status === 403) return signIn(error.message);
    store.set({ alert: error.message });
  }
}

/** @param {import("./tickets.js").Ticket} ticket */
async function move(ticket) {
  const status = NEXT[ticket.status];
  store.set(({ moving }) => ({ moving: { ...moving, [ticket.id]: true } }));
  try {
    heard(await api.call(`kitchen/tickets/${ticket.id}/status`, { method: "POST", body: { status } }));
    store.set({ alert: "" });
    announce(`Order ${ticket.number}: ${status}.`);
  } catch (error) {
    store.set({ alert: `Order ${ticket.number} could not be moved: ${error.message}` });
    if (error.status === 409 || error.status === 404) poll(Date.now()); // someone else moved it
  } finally {
    store.set(({ moving }) => {
      const rest = { ...moving };
      delete rest[ticket.id];
      return { moving: rest };
    });
  }
}

/** @param {string} reason */
function signIn(reason) {
  if (api.token) api.forgetToken();
  store.set({ screen: "signin", signinReason: reason });
}

async function boot() {
  let me;
  try {
    me = await api.call("me");
  } catch (error) {
    if (error.status === 401 || error.status === 403) return signIn(api.token ? error.message : "");
    store.set({ alert: `The kitchen display could not start: ${error.message}`, screen: "signin" });
    return;
  }
  if (!me.screens.includes("kitchen")) return signIn("This link opens another screen.");
  store.set({ me, screen: "kitchen" });
  document.title = `Kitchen: ${me.business.name}`;
  new DisplayFeed({
    api,
    me,
    channel: me.channels.kitchen,
    events: { TicketChanged: (data) => heard(data.ticket) },
    poll,
    onState: (realtime) => store.set({ realtime }),
  }).start();
}

byId("sound").addEventListener("click", () => {
  const on = !store.get().sound && chime.unlock();
  store.set({ sound: on });
  if (on) chime.play();
});
renderKitchen(store, move);
boot().catch((error) => logFailure("starting the kitchen display", error));
