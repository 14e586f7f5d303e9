// The held sessions on screen: a card each in the rail beside the conversation (what the customer
// is doing, the chat's unread count, its last message and a reply box), the card opened on the main
// view (its cart and timeline), and the keys that move between them. Drawn from the store only.
import { interpolate, pgettext } from "../common/gettext.js";
import { money } from "../common/format.js";
import { watch } from "../common/store.js";
import { byId, el, redrawKeepingFocus, showError, within } from "../common/ui.js";
import { speakerOf } from "./chat-state.js";
import { cardView, cartLockedWords, KEYS, lastFromCustomer, mediumWords } from "./held-state.js";
import { sessionNotes } from "./session-notes.js";
import { fillCart, fillMenu, sameLineControl, sameMenuButton } from "./views.js";

/**
 * @typedef {import("./state.js").AgentState} AgentState
 * @typedef {import("./held-state.js").HeldCard} HeldCard
 * @typedef {{view(id: string | null): void, reply(id: string): void, type(id: string, draft: string): void, dismiss(id: string): void,
 *   choose(id: string, item: import("./state.js").MenuItem): void, change(id: string, index: number, change: object): void}} HeldActions
 */

/** @param {import("../common/store.js").Store<AgentState>} store @param {HeldActions} actions */
export function renderHeld(store, actions) {
  byId("held-title").textContent = pgettext("agent", "Your other customers");
  byId("keys-hint").textContent = keysHint();
  const nodes = new Map(); // session id -> its card: a card stays the same node (its reply box keeps the caret)
  watch(store, (s) => s.held, (held) => drawCards(held, nodes, actions));
  watch(store, (s) => s.viewed, (viewed) => markViewed(nodes, viewed));
  const opened = (/** @type {AgentState} */ s) => (s.viewed && s.held.find((card) => card.session.id === s.viewed)) || null;
  const draw = () => drawOpened(opened(store.get()), store.get().menu, actions);
  watch(store, opened, draw);
  watch(store, (s) => s.menu, draw);
}

/** The keys, as the rail says them. */
export const keysHint = () =>
  interpolate(pgettext("agent", "Keys: %(accept)s accepts an offer · %(next)s / %(previous)s next / previous customer · %(conversation)s back to the conversation"), {
    accept: KEYS.accept,
    next: KEYS.next,
    previous: KEYS.previous,
    conversation: KEYS.conversation,
  });

/** @param {HeldCard[]} held @param {Map<string, HTMLElement>} nodes @param {HeldActions} actions */
function drawCards(held, nodes, actions) {
  const list = byId("held-cards");
  const ids = new Set(held.map((card) => card.session.id));
  for (const [id, node] of nodes) {
    if (ids.has(id)) continue;
    node.remove();
    nodes.delete(id);
  }
  for (const card of held) {
    const node = nodes.get(card.session.id) || newCard(card, actions);
    if (!nodes.has(card.session.id)) {
      nodes.set(card.session.id, node);
      list.append(node);
    }
    fillCard(node, card);
  }
  byId("held-rail").hidden = held.length === 0;
}

/** @param {HeldCard} card @param {HeldActions} actions */
function newCard(card, actions) {
  const { session } = card;
  const id = session.id;
  const title = `held-${id}-title`;
  const input = el("textarea", {
    class: "reply-text",
    rows: 2,
    "aria-label": interpolate(pgettext("agent", "Reply to the customer at %(kiosk)s"), { kiosk: session.kiosk.name }),
    oninput: (/** @type {Event} */ event) => actions.type(id, /** @type {HTMLTextAreaElement} */ (event.target).value),
    onkeydown: (/** @type {KeyboardEvent} */ event) => {
      if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
      event.preventDefault();
      actions.reply(id);
    },
  });
  return el(
    "li",
    { class: "card held", "data-session-id": id, "aria-labelledby": title },
    el("strong", { class: "kiosk-name", id: title, text: session.kiosk.name }),
    el("span", { class: "medium", text: mediumWords(session) }),
    el("div", { class: "notes" }, sessionNotes(session)),
    el("p", { class: "held-state", "aria-live": "polite" }),
    el("p", { class: "preview" }),
    el(
      "form",
      {
        class: "reply",
        novalidate: true,
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          actions.reply(id);
        },
      },
      input,
      el("button", { type: "submit", class: "reply-send", text: pgettext("agent", "Send") }),
      el("p", { class: "error reply-error", role: "alert", hidden: true }),
    ),
    el("button", {
      type: "button",
      class: "open",
      text: pgettext("agent", "Open"),
      "aria-label": interpolate(pgettext("agent", "Open the session with %(kiosk)s"), { kiosk: session.kiosk.name }),
      "aria-keyshortcuts": `${KEYS.next} ${KEYS.previous}`,
      onclick: () => actions.view(id),
    }),
    el("button", { type: "button", class: "dismiss", text: pgettext("agent", "Dismiss"), hidden: true, onclick: () => actions.dismiss(id) }),
  );
}

/** @param {HTMLElement} node @param {HeldCard} card */
function fillCard(node, card) {
  const { state, text } = cardView(card);
  node.dataset.state = state;
  node.dataset.status = card.session.status;
  const described = `${Boolean(card.session.accessible_mode)}:${card.session.medium}`; // what the notes say (accessible mode turns on and off)
  if (node.dataset.described !== described) {
    node.dataset.described = described;
    within(node, ".notes").replaceChildren(...sessionNotes(card.session));
  }
  within(node, ".held-state").textContent = text;
  const last = lastFromCustomer(card);
  const preview = within(node, ".preview");
  preview.textContent = last ? `${speakerOf(last)}: ${last.text}` : "";
  preview.hidden = !last;
  const ended = Boolean(card.outcome);
  // A reply box where the customer writes: a chat session, or any customer who wrote.
  within(node, "form.reply").hidden = ended || (card.session.medium !== "chat" && !last);
  const input = /** @type {HTMLTextAreaElement} */ (within(node, ".reply-text"));
  if (input.value !== card.chat.draft) input.value = card.chat.draft;
  /** @type {HTMLButtonElement} */ (within(node, ".reply-send")).disabled = card.chat.sending || !card.chat.draft.trim();
  showError(within(node, ".reply-error"), card.chat.error);
  within(node, "button.open").hidden = ended;
  within(node, "button.dismiss").hidden = !ended;
}

/** The card on the main view is marked in the rail. @param {Map<string, HTMLElement>} nodes @param {string | null} viewed */
function markViewed(nodes, viewed) {
  for (const [id, node] of nodes) {
    if (id === viewed) node.setAttribute("aria-current", "true");
    else node.removeAttribute("aria-current");
  }
}

/** The menu drawn in the opened card, and for which card (drawn again only when either changes). */
let drawnMenu = { id: "", menu: /** @type {import("./state.js").AgentState["menu"]} */ (null), locked: false };

/**
 * The card opened on the main view: its cart in the session in hand's editor (the lines, the menu
 * to add from; locked while the customer pays, said so) and its timeline. Built once per card
 * opened, then filled, so a control keeps the focus across the card's changes.
 * @param {HeldCard | null} card @param {import("./state.js").AgentState["menu"]} menu @param {HeldActions} actions
 */
function drawOpened(card, menu, actions) {
  if (!card) return; // views.js drawPanels shows or hides the section
  const body = byId("held-view-body");
  const { session, order } = card;
  const id = session.id;
  if (body.dataset.sessionId !== id) {
    body.dataset.sessionId = id;
    byId("held-view-title").textContent = interpolate(pgettext("agent", "Session with %(kiosk)s"), { kiosk: session.kiosk.name });
    body.replaceChildren(
      el("div", { class: "notes" }),
      el("p", { class: "held-state" }),
      el("h3", { text: pgettext("agent", "Cart") }),
      el("p", { class: "note cart-locked", hidden: true }),
      el("ul", { class: "cart held-cart", "aria-label": interpolate(pgettext("agent", "The cart of %(kiosk)s"), { kiosk: session.kiosk.name }) }),
      el("p", { class: "note cart-empty", text: pgettext("agent", "The cart is empty.") }),
      el("p", { class: "total" }),
      el("p", { class: "error cart-error", role: "alert", hidden: true }),
      el("h3", { text: pgettext("agent", "Add from the menu") }),
      el("div", { class: "menu held-menu" }),
      el("h3", { text: pgettext("agent", "Timeline") }),
      el("ol", { class: "timeline" }),
      el("button", {
        type: "button",
        class: "back",
        text: interpolate(pgettext("agent", "Back to the conversation (%(key)s)"), { key: KEYS.conversation }),
        "aria-keyshortcuts": KEYS.conversation,
        onclick: () => actions.view(null),
      }),
    );
  }
  within(body, ".notes").replaceChildren(...sessionNotes(session));
  const shown = cardView(card);
  const state = within(body, ".held-state");
  state.dataset.state = shown.state;
  state.textContent = shown.text;
  const locked = cartLockedWords(card);
  const lockedNote = within(body, ".cart-locked");
  lockedNote.textContent = locked;
  lockedNote.hidden = !locked;
  const currency = (order && order.currency) || "USD";
  const { cart } = card;
  const list = within(body, ".held-cart");
  list.dataset.saving = String(cart.saving);
  const cartActions = { change: (/** @type {number} */ index, /** @type {object} */ change) => actions.change(id, index, change) };
  redrawKeepingFocus(list, sameLineControl, () => fillCart(list, { lines: cart.lines, order, lineErrors: cart.lineErrors }, cartActions, { locked: Boolean(locked), currency }));
  within(body, ".cart-empty").hidden = cart.lines.length > 0;
  within(body, ".total").textContent = order ? interpolate(pgettext("agent", "Total: %(total)s"), { total: money(order.total_cents, currency) }) : "";
  showError(within(body, ".cart-error"), cart.error === locked ? "" : cart.error);
  const menuRoot = within(body, ".held-menu");
  menuRoot.hidden = Boolean(locked);
  if (drawnMenu.id !== id || drawnMenu.menu !== menu || drawnMenu.locked !== Boolean(locked)) {
    drawnMenu = { id, menu, locked: Boolean(locked) };
    redrawKeepingFocus(menuRoot, sameMenuButton, () => fillMenu(menuRoot, locked ? [] : menu, { choose: (item) => actions.choose(id, item) }));
  }
  within(body, ".timeline").replaceChildren(...timeline(card).filter((node) => node !== null));
}

/** What happened in the session, oldest first: accepted, each message, where it stands now. @param {HeldCard} card */
function timeline(card) {
  const at = (/** @type {string | null | undefined} */ iso) => (iso ? new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "");
  return [
    card.session.accepted_at ? el("li", { text: `${at(card.session.accepted_at)} ${pgettext("agent", "You accepted the session.")}` }) : null,
    ...card.chat.messages.map((message) => el("li", { class: `message from-${message.sender}`, text: `${at(message.created_at)} ${speakerOf(message)}: ${message.text}` })),
    el("li", { class: "now", text: cardView(card).text }),
  ];
}
