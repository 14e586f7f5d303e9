// Show to customer and point at an item (so both talk about the same dish), the agent's side:
// "Show" on a menu item opens it large on the kiosk (POST /api/sessions/{id}/show); the customer's
// tap on an item arrives as MenuItemPointed and the session says "The customer is looking at
// Classic burger". `stockWords` and `pointedWords` are pure and unit-tested
// (tests/js/agent-pointing.test.js).
import { interpolate, pgettext } from "../common/gettext.js";
import { asFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { byId } from "../common/ui.js";
import { post } from "./api.js";

/** @typedef {import("./state.js").AgentState} AgentState */

/** The stock left of a tracked item, "" when untracked. @param {{stock_left?: number | null, sold_out?: boolean}} item */
export function stockWords(item) {
  if (item.stock_left === null || item.stock_left === undefined || item.sold_out) return "";
  return `${item.stock_left} left`;
}

/** @param {AgentState["pointed"]} pointed */
export const pointedWords = (pointed) => (pointed ? interpolate(pgettext("agent", "The customer is looking at %(item)s."), { item: pointed.name }) : "");

/**
 * @param {import("../common/store.js").Store<AgentState>} store
 * @param {{announce: (text: string) => void}} hooks
 */
export function createPointing(store, { announce }) {
  /** "Show" on a menu item: the kiosk opens it large. @param {{id: string, name: string}} item */
  async function show(item) {
    const session = store.get().session;
    if (!session) return;
    try {
      await post(`/api/sessions/${session.id}/show`, { item_id: item.id });
      announce(interpolate(pgettext("agent", "%(item)s is shown to the customer."), { item: item.name }));
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status !== 401) store.set({ cartError: interpolate(pgettext("agent", "%(item)s could not be shown to the customer: %(why)s"), { item: item.name, why: error.message }) });
    }
  }

  /** MenuItemPointed on the agent's channel. @param {{session_id: string, item_id: string, name: string}} data */
  function pointed(data) {
    const session = store.get().session;
    if (!session || session.id !== data.session_id) return;
    store.set({ pointed: { itemId: String(data.item_id), name: data.name } });
  }

  watch(store, (s) => s.pointed, (now) => {
    const note = byId("customer-pointing");
    note.textContent = pointedWords(now);
    note.hidden = !now;
    if (now) announce(note.textContent);
  });

  return { show, pointed };
}
