// The held sessions on screen: a card each in the rail beside the conversation (what the customer
// is doing, the chat's unread count, its last message and a reply box), the card opened on the main
// view (its cart and timeline), and the keys that move between them. Drawn from the store only.
import { interpolate, pgettext } from "../common/gettext.js";
import { money } from "../common/format.js";
import { modifierText } from "../common/modifier-text.js";
import { watch } from "../common/store.js";
import { byId, el, showError, within } from "../common/ui.js";
import { speakerOf } from "./chat-state.js";
import { cardView, KEYS, lastFromCustomer, mediumWords } from "./held-state.js";
import { sessionNotes } from "./session-notes.js";

/**
 * @typedef {import("./state.js").AgentState} AgentState
 * @typedef {import("./held-state.js").HeldCard} HeldCard
 * @typedef {{view(id: string | null): void, reply(id: string): void, type(id: string, draft: string): void, dismiss(id: string): void}} HeldActions
 */

/** @param {import("../common/store.js").Store<AgentState>} store @param {HeldActions} actions */
export function renderHeld(store, actions) {
  byId("held-title").textContent = pgettext("agent", "Your other customers");
  byId("keys-hint").textContent = keysHint();
  const nodes = new Map(); // session id -> its card: a card stays the same node (its reply box keeps the caret)
  watch(store, (s) => s.held, (held) => drawCards(held, nodes, actions));
  watch(store, (s) => s.viewed, (viewed) => markViewed(nodes, viewed));
  const opened = (/** @type {AgentState} */ s) => (s.viewed && s.held.find((card) => card.session.id === s.viewed)) || null;
  watch(store, opened, (card) => drawOpened(card, actions));
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

/** The card opened on the main view: its cart and its timeline. @param {HeldCard | null} card @param {HeldActions} actions */
function drawOpened(card, actions) {
  if (!card) return; // views.js drawPanels shows or hides the section
  const { session, order } = card;
  byId("held-view-title").textContent = interpolate(pgettext("agent", "Session with %(kiosk)s"), { kiosk: session.kiosk.name });
  const currency = (order && order.currency) || "USD";
  const lines = order ? order.lines : [];
  const total = order ? el("p", { class: "total", text: interpolate(pgettext("agent", "Total: %(total)s"), { total: money(order.total_cents, currency) }) }) : "";
  byId("held-view-body").replaceChildren(
    el("div", { class: "notes" }, sessionNotes(session)),
    el("p", { class: "held-state", "data-state": cardView(card).state, text: cardView(card).text }),
    el("h3", { text: pgettext("agent", "Cart") }),
    lines.length
      ? el(
          "ul",
          { class: "cart held-cart" },
          lines.map((line) =>
            el(
              "li",
              { class: "line" },
              el("span", { class: "name", text: `${line.quantity} × ${line.name}` }),
              modifierText(line.modifiers) ? el("span", { class: "modifiers", text: modifierText(line.modifiers) }) : null,
              el("span", { class: "price", text: money(line.unit_price_cents * line.quantity, currency) }),
            ),
          ),
        )
      : el("p", { class: "note", text: pgettext("agent", "The cart is empty.") }),
    total,
    el("h3", { text: pgettext("agent", "Timeline") }),
    el("ol", { class: "timeline" }, timeline(card)),
    el("button", {
      type: "button",
      class: "back",
      text: interpolate(pgettext("agent", "Back to the conversation (%(key)s)"), { key: KEYS.conversation }),
      "aria-keyshortcuts": KEYS.conversation,
      onclick: () => actions.view(null),
    }),
  );
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
