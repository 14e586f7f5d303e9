// Draws the kitchen display from its store. Tickets are kept by order id: each tick updates a
// ticket's age in place, so the focused button (keyboard use) stays where it is.
import { interpolate, pgettext } from "../common/gettext.js";
import { watch } from "../common/store.js";
import { byId, el, showError, within } from "../common/ui.js";
import { printerLines } from "./printers.js";
import { ageOf, elapsed, NEXT, ordered } from "./tickets.js";

/** @type {Record<string, () => string>} the button that moves a ticket to each status */
const ACTION = { preparing: () => pgettext("display", "Start"), ready: () => pgettext("display", "Ready"), completed: () => pgettext("display", "Done") };
/** @type {Record<string, () => string>} */
const STATUS = { confirmed: () => pgettext("display", "New"), preparing: () => pgettext("display", "Preparing"), ready: () => pgettext("display", "Ready") };
/** @type {Record<string, () => string>} */
const DINING = { eat_in: () => pgettext("display", "Eat in"), take_away: () => pgettext("display", "Take away") };

/** @param {import("./tickets.js").Ticket} ticket */
function ticketLines(ticket) {
  return ticket.lines.map((line) =>
    el(
      "li",
      { class: "line" },
      el("span", { class: "quantity", text: `${line.quantity} ×` }),
      " ",
      el("span", { class: "name", text: line.name }),
      line.modifiers.length
        ? el("ul", { class: "modifiers" }, ...line.modifiers.map((m) => el("li", { text: `${m.group}: ${m.value}` })))
        : null,
      line.notes ? el("p", { class: "notes", text: line.notes }) : null,
    ),
  );
}

/**
 * @param {import("../common/store.js").Store<import("./state.js").KitchenState>} store
 * @param {(ticket: import("./tickets.js").Ticket) => void} onMove
 * @param {(ticket: import("./tickets.js").Ticket) => void} onReprint
 */
export function renderKitchen(store, onMove, onReprint) {
  /** @type {Map<string, HTMLElement>} */
  const shown = new Map();
  const list = byId("tickets");

  watch(store, (s) => s.screen, (screen) => {
    document.body.dataset.screen = screen;
    byId("screen-signin").hidden = screen !== "signin";
    byId("screen-kitchen").hidden = screen !== "kitchen";
  });
  watch(store, (s) => s.signinReason, (reason) => showError(byId("signin-reason"), reason));
  watch(store, (s) => s.me, (me) => {
    byId("business-name").textContent = me ? me.business.name : "";
  });
  watch(store, (s) => s.realtime, (realtime) => {
    document.body.dataset.realtime = realtime;
    byId("live-state").textContent = realtime === "live" ? pgettext("display", "Live") : realtime === "polling" ? pgettext("display", "Reconnecting (checking every few seconds)") : "";
  });
  watch(store, (s) => s.alert, (alert) => showError(byId("alert"), alert));
  watch(
    store,
    (s) => (s.me ? JSON.stringify(printerLines(s.printers, s.now, s.me.settings.print_late_seconds)) : "[]"),
    (drawn) => {
      /** @type {import("./printers.js").PrinterLine[]} */
      const lines = JSON.parse(drawn);
      const box = byId("printers");
      box.hidden = lines.length === 0;
      box.replaceChildren(...lines.map((line) => el("p", { class: line.late ? "printer late" : "printer", "data-printer-id": line.id, text: line.text })));
    },
  );
  watch(store, (s) => s.sound, (sound) => {
    const button = byId("sound");
    button.setAttribute("aria-pressed", String(sound));
    button.textContent = sound ? pgettext("display", "Sound on") : pgettext("display", "Turn sound on");
  });

  /** @param {import("./state.js").KitchenState} state @param {import("../common/display-api.js").DisplayMe} me */
  const draw = (state, me) => {
    const tickets = ordered(state.tickets);
    for (const [id, node] of shown) {
      if (!state.tickets[id]) {
        node.remove();
        shown.delete(id);
      }
    }
    tickets.forEach((ticket, index) => {
      let node = shown.get(ticket.id);
      if (!node) {
        const button = el("button", { type: "button", class: "move", onclick: () => onMove(store.get().tickets[ticket.id].ticket) });
        const reprint = el("button", {
          type: "button",
          class: "reprint",
          text: pgettext("display", "Reprint"),
          "aria-label": interpolate(pgettext("display", "Reprint the ticket of order %(number)s"), { number: ticket.number }),
          onclick: () => onReprint(store.get().tickets[ticket.id].ticket),
        });
        node = el(
          "li",
          { class: "ticket", "data-id": ticket.id },
          el("header", {}, el("span", { class: "number" }), el("span", { class: "dining" }), el("span", { class: "age" })),
          el("p", { class: "status" }),
          el("ul", { class: "lines" }),
          button,
          reprint,
        );
        shown.set(ticket.id, node);
      }
      if (list.children[index] !== node) list.insertBefore(node, list.children[index] || null);
      const next = NEXT[ticket.status];
      within(node, ".number").textContent = `#${ticket.number}`;
      within(node, ".dining").textContent = (ticket.dining && DINING[ticket.dining]?.()) || "";
      within(node, ".age").textContent = elapsed(ticket, state.now);
      within(node, ".status").textContent = STATUS[ticket.status]?.() || ticket.status;
      if (node.dataset.updatedAt !== ticket.updated_at) {
        within(node, ".lines").replaceChildren(...ticketLines(ticket));
        node.dataset.updatedAt = ticket.updated_at;
      }
      node.dataset.status = ticket.status;
      node.dataset.age = ageOf(ticket, state.now, me.settings);
      const button = /** @type {HTMLButtonElement} */ (node.querySelector(".move"));
      button.textContent = ACTION[next]();
      button.setAttribute("aria-label", interpolate(pgettext("display", "%(action)s: order %(number)s"), { action: ACTION[next](), number: ticket.number }));
      button.disabled = Boolean(state.moving[ticket.id]);
    });
    byId("empty").hidden = tickets.length > 0;
  };
  watch(store, (s) => s, (state) => {
    if (state.screen === "kitchen" && state.me) draw(state, state.me); // signed in: me is known
  });
}
