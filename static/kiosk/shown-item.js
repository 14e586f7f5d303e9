// Show to customer and point at an item (so agent and customer talk about the same dish), the
// kiosk's side. The agent's "Show" arrives as MenuItemShown and opens that item of the kiosk's own
// menu large (photo, description, allergens, options) until the customer closes it; a tap on a menu
// item while an agent serves tells the agent which (POST /api/public/sessions/{id}/point). The cart
// stays the agent's.
import { logFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { byId, el } from "../common/ui.js";
import { post } from "./api.js";
import { t } from "./messages.js";
import { shownItemView } from "./shown-item-view.js";

/** @typedef {import("./state.js").KioskState} KioskState */

const SERVED = ["active", "payment"];

/** @param {import("../common/store.js").Store<KioskState>} store @param {{announce: (text: string) => void}} hooks */
export function createShownItem(store, { announce }) {
  const dialog = byId("item-shown", HTMLDialogElement);
  const serving = () => {
    const { sessionId, status } = store.get();
    return Boolean(sessionId && status && SERVED.includes(status.status));
  };

  /** The customer points at an item: the agent hears which. @param {string} itemId */
  async function pointAt(itemId) {
    if (!serving()) return;
    const sessionId = store.get().sessionId;
    store.set({ pointed: { itemId, told: false } });
    try {
      await post(`/api/public/sessions/${sessionId}/point`, { item_id: itemId });
      if (store.get().sessionId === sessionId) store.set({ pointed: { itemId, told: true } });
    } catch (error) {
      logFailure("telling the agent which item the customer looks at", error); // the customer can still say it
    }
  }

  const menuRoot = byId("kiosk-menu-categories");
  menuRoot.addEventListener("click", (event) => {
    const item = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest(".menu-item[data-item-id]"));
    if (item) pointAt(String(item.dataset.itemId));
  });
  menuRoot.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const item = /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (event.target).closest(".menu-item[data-item-id]"));
    if (!item) return;
    event.preventDefault();
    pointAt(String(item.dataset.itemId));
  });
  byId("item-shown-close").addEventListener("click", () => store.set({ shownItem: null }));
  dialog.addEventListener("close", () => store.get().shownItem && store.set({ shownItem: null }));

  watch(store, (s) => `${s.shownItem}|${s.locale}|${Boolean(s.menu.body)}|${s.order ? s.order.currency : ""}`, (_, s) => drawShown(s, dialog, announce));
  watch(store, (s) => `${s.pointed ? s.pointed.itemId : ""}|${s.pointed ? s.pointed.told : ""}|${s.locale}|${Boolean(s.menu.body)}`, (_, s) => drawPointed(s, announce));
}

/** @param {KioskState} state @param {HTMLDialogElement} dialog @param {(text: string) => void} announce */
function drawShown({ shownItem, menu, locale, order, status }, dialog, announce) {
  const view = shownItemView(menu.body, shownItem, locale, (order && order.currency) || null);
  if (!view) {
    if (dialog.open) dialog.close();
    return;
  }
  const agent = (status && status.agent && status.agent.name) || t(locale, "session.someone");
  byId("item-shown-from").textContent = t(locale, "shown.from", { name: agent });
  byId("item-shown-close").textContent = t(locale, "shown.close");
  // replaceChildren writes a null as the text "null": the parts an item lacks are left out first.
  const parts = [
    view.photoUrl
      ? el("img", { class: "photo", src: view.photoUrl, alt: "" })
      : el("span", { class: "photo placeholder", "aria-hidden": "true", text: t(locale, "menu.no_photo") }),
    el("h2", { id: "item-shown-name", text: view.name }),
    el("p", { class: "price", text: view.price }),
    view.description ? el("p", { class: "description", text: view.description }) : null,
    view.allergens ? el("p", { class: "allergens", text: view.allergens }) : null,
    view.dietary.length ? el("p", { class: "tags" }, view.dietary.map((tag) => el("span", { class: "tag", text: tag }))) : null,
    view.soldOut ? el("p", { class: "sold-out-note", text: t(locale, "menu.sold_out") }) : null,
    ...view.groups.map((group) =>
      el("section", { class: "options" }, el("h3", { text: group.name }), el("ul", {}, group.options.map((text) => el("li", { text })))),
    ),
  ];
  byId("item-shown-body").replaceChildren(...parts.filter((part) => part !== null));
  if (!dialog.open) {
    dialog.showModal();
    announce(t(locale, "shown.announce", { name: agent, item: view.name }));
  }
}

/** @param {KioskState} state @param {(text: string) => void} announce */
function drawPointed({ pointed, menu, locale, status }, announce) {
  const note = byId("kiosk-menu-pointed");
  const view = pointed && pointed.told ? shownItemView(menu.body, pointed.itemId, locale, null) : null;
  document.querySelectorAll("#kiosk-menu-categories .menu-item.pointed").forEach((node) => node.classList.remove("pointed"));
  if (!view) {
    note.textContent = "";
    note.hidden = true;
    return;
  }
  const itemId = view.id; // the view is of the pointed item
  const node = document.querySelector(`#kiosk-menu-categories .menu-item[data-item-id="${CSS.escape(itemId)}"]`);
  if (node) node.classList.add("pointed");
  const agent = (status && status.agent && status.agent.name) || t(locale, "session.someone");
  note.textContent = t(locale, "menu.pointed", { name: agent, item: view.name });
  note.hidden = false;
  announce(note.textContent);
}
