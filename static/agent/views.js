// The dashboard's UI modules: each draws one part of the page from the store and never reads the
// page back as state. `actions` are what the buttons drawn here do.
import { interpolate, pgettext } from "../common/gettext.js";
import { money } from "../common/format.js";
import { modifierText } from "../common/modifier-text.js";
import { watch } from "../common/store.js";
import { $$, byId, el, redrawKeepingFocus, showError, within } from "../common/ui.js";
import { endWords, paymentView } from "./cart-state.js";
import { offerLeftWords, secondsLeft, statusNotice } from "./offer.js";
import { duration, waitedSeconds } from "./queue-state.js";
import { cartLocked } from "./state.js";
import { searchMenu } from "./menu-search.js";
import { stockWords } from "./pointing.js";
import { todayFigures } from "./today-figures.js";
import { languageOf, liveLabel, statusBanner } from "./words.js";
import { transferChoices, waitingWords } from "./transfer-state.js";
import { KEYS, mediumWords } from "./held-state.js";
import { mediumNote, sessionNotes } from "./session-notes.js";

/**
 * @typedef {import("./state.js").AgentState} AgentState
 * @typedef {{accept(session: import("./queue-state.js").Incoming): void, choose(item: import("./state.js").MenuItem): void, show(item: import("./state.js").MenuItem): void, change(index: number, change: object): void, revoke(token: import("./state.js").Token): void, backToAvailable(): void}} Actions
 */

const BASE_TITLE = document.title;

/** @param {import("../common/store.js").Store<AgentState>} store @param {Actions} actions @param {(text: string) => void} announce */
export function renderAgent(store, actions, announce) {
  watch(store, (s) => s.signIn, drawSignIn);
  watch(store, (s) => s.signIn.open && s.signIn.step, (step) => step && focusStep(step));
  watch(store, (s) => s.started, (started) => (byId("app").hidden = !started));
  watch(store, (s) => s.locked, (locked) => (byId("app").inert = locked));
  watch(store, (s) => s.user, drawUser);
  watch(store, (s) => statusNotice(s.user), (notice) => drawStatusNotice(notice, actions));
  watch(store, (s) => s.live, drawLive);
  watch(store, (s) => s.muted, drawMuted);
  watch(store, (s) => s.alert, (alert) => showError(byId("alert"), alert));
  watch(store, (s) => `${s.tab}:${Boolean(s.session)}:${s.held.length > 0}:${openedCard(s)}`, () => drawPanels(store.get()));
  const cards = new Map(); // session id -> its <li>: a card stays the same node while it waits
  watch(store, (s) => s.queue, (queue) => drawQueue(queue, store.get().now, cards, actions));
  watch(store, (s) => s.now, (now) => drawWaiting(store.get().queue, now, cards));
  watch(store, (s) => s.session, drawSessionHeader);
  watch(store, (s) => s.menu, (menu, s) => drawMenu(searchMenu(menu, s.menuQuery), actions));
  watch(store, (s) => s.menuQuery, (query, s) => drawMenu(searchMenu(s.menu, query), actions));
  const cartParts = (/** @type {AgentState} */ s) => [s.lines, s.order, s.lineErrors, cartLocked(s)];
  let lastCart = cartParts(store.get());
  drawCart(store.get(), actions);
  store.subscribe((s) => {
    const parts = cartParts(s);
    if (parts.every((part, at) => Object.is(part, lastCart[at]))) return;
    lastCart = parts;
    drawCart(s, actions);
  });
  watch(store, (s) => s.saving, (saving) => (byId("cart-lines").dataset.saving = String(saving)));
  watch(store, (s) => s.cartError, (error) => showError(byId("cart-error"), error));
  watch(store, (s) => Boolean(s.unsaved), (unsaved) => (byId("cart-retry").hidden = !unsaved));
  watch(store, (s) => paymentView(s.session ? s.session.status : "", s.order, s.payment).text, (_, s) => drawPayment(s, announce));
  watch(store, (s) => s.ending.problem, drawEnding);
  watch(store, (s) => s.transfer.candidates, drawTransferChoices);
  watch(store, (s) => waitingWords(s.transfer.pending, s.now) || s.transfer.notice, (words) => (byId("transfer-state").textContent = words));
  watch(store, (s) => s.transfer.error, (error) => showError(byId("transfer-error"), error));
  watch(store, (s) => Boolean(s.transfer.pending) || !s.session || s.session.status !== "active", (off) => {
    byId("transfer-send", HTMLButtonElement).disabled = off;
    byId("transfer-to", HTMLSelectElement).disabled = off;
  });
  watch(store, (s) => Boolean(s.transfer.pending), (pending) => (byId("transfer-cancel").hidden = !pending));
  watch(store, (s) => s.result, drawResult);
  watch(store, (s) => s.history, drawHistory);
  watch(store, (s) => s.today, drawToday);
  watch(store, (s) => s.tokens, (tokens) => drawTokens(tokens, actions));
}

/** @param {AgentState["signIn"]} signIn */
function drawSignIn({ open, reason, step, error, waitLeft }) {
  const section = byId("signin");
  section.hidden = !open;
  section.classList.toggle("overlay", Boolean(reason));
  byId("signin-reason").textContent = reason;
  byId("signin-reason").hidden = !reason;
  showError(byId("signin-error"), error);
  byId("password-step").hidden = step === "code";
  byId("code-step").hidden = step !== "code";
  const submit = byId("signin-submit", HTMLButtonElement);
  submit.textContent = step === "code" ? pgettext("agent", "Verify") : pgettext("agent", "Sign in");
  submit.disabled = waitLeft > 0;
}

/** @param {string} step */
const focusStep = (step) => byId(step === "code" ? "signin-code" : "signin-email").focus();

/** @param {AgentState["user"]} user */
function drawUser(user) {
  if (!user) return;
  byId("agent-name").textContent = user.name || user.email;
  const status = byId("agent-status", HTMLSelectElement);
  status.value = user.agent_status;
  status.dataset.status = user.agent_status;
  const banner = byId("status-banner");
  const { title, detail } = statusBanner(user.agent_status, user);
  banner.dataset.status = user.agent_status;
  byId("status-banner-title").textContent = title;
  byId("status-banner-detail").textContent = detail;
}

/** Why the server set the status, with the way back to available. @param {string} notice @param {Actions} actions */
function drawStatusNotice(notice, actions) {
  const box = byId("status-notice");
  box.hidden = !notice;
  byId("status-notice-text").textContent = notice;
  byId("back-available").onclick = () => actions.backToAvailable();
}

/** @param {string} live */
function drawLive(live) {
  if (!live) return; // not started: the page's own "Connecting…"
  const label = byId("live-state");
  label.dataset.state = live;
  label.textContent = liveLabel(live);
}

/** @param {boolean} muted */
function drawMuted(muted) {
  const button = byId("mute");
  button.setAttribute("aria-pressed", muted ? "true" : "false");
  button.textContent = muted ? pgettext("agent", "Unmute ring") : pgettext("agent", "Mute ring");
}

/** Whether a held card is opened on the main view (the session in hand then waits behind it). @param {AgentState} s */
const openedCard = (s) => Boolean(s.viewed && s.held.some((card) => card.session.id === s.viewed));

/**
 * The queue tab shows the rail (offers, the other customers held) beside the main view: the
 * session in hand, or the held card opened in its place. @param {AgentState} state
 */
function drawPanels(state) {
  const { tab, session } = state;
  $$(".tab").forEach((button) => {
    if (button.dataset.tab === tab) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  });
  const opened = openedCard(state);
  byId("main").dataset.serving = String(tab === "queue" && (Boolean(session) || opened));
  byId("rail").hidden = tab !== "queue";
  byId("queue").hidden = tab !== "queue";
  byId("session").hidden = tab !== "queue" || !session || opened;
  byId("held-view").hidden = tab !== "queue" || !opened;
  byId("history").hidden = tab !== "history";
  byId("tokens").hidden = tab !== "tokens";
}

/**
 * @param {AgentState["queue"]} queue @param {number} now @param {Map<string, HTMLElement>} cards
 * @param {Actions} actions
 */
function drawQueue(queue, now, cards, actions) {
  const list = byId("incoming");
  const ids = new Set(queue.cards.map((card) => card.session.id));
  for (const [id, node] of cards) {
    if (ids.has(id)) continue;
    node.remove();
    cards.delete(id);
  }
  for (const { session } of queue.cards) {
    const drawn = cards.get(session.id);
    if (drawn) {
      // The customer may change language while waiting: the card says the one chosen now.
      const language = drawn.querySelector(".language");
      if (language) language.textContent = languageOf(session.customer_locale);
      // And turn the kiosk's accessible mode on or off (OfferAccessibleModeChanged): its note follows.
      const mode = String(Boolean(session.accessible_mode));
      if (drawn.dataset.accessible !== mode) {
        drawn.dataset.accessible = mode;
        within(drawn, ".notes").replaceChildren(...sessionNotes(session));
      }
      continue;
    }
    const node = el(
      "li",
      { class: "card incoming", "data-session-id": session.id, "data-accessible": String(Boolean(session.accessible_mode)) },
      el("strong", { class: "kiosk-name", text: session.kiosk.name }),
      el("span", { class: "location", text: session.kiosk.location || "" }),
      el("span", { class: "business", text: session.business.name }),
      el("span", { class: "language", text: languageOf(session.customer_locale) }),
      el("span", { class: "medium", text: mediumWords(session) }),
      el("div", { class: "notes" }, sessionNotes(session)),
      session.transfer_from ? el("span", { class: "transfer-from", text: interpolate(pgettext("agent", "Transfer from %(name)s"), { name: session.transfer_from.name }) }) : null,
      el("span", { class: "waiting", "aria-label": pgettext("agent", "waiting time") }),
      el("span", { class: "offer-left", "aria-label": pgettext("agent", "time left to answer") }),
      el("button", { type: "button", class: "primary accept", text: pgettext("agent", "Accept"), "aria-keyshortcuts": KEYS.accept, onclick: () => actions.accept(session) }),
      el("span", { class: "key-hint" }, pgettext("agent", "or press "), el("kbd", { class: "key", text: KEYS.accept })),
    );
    cards.set(session.id, node);
    list.append(node);
  }
  drawWaiting(queue, now, cards);
}

/** @param {AgentState["queue"]} queue @param {number} now @param {Map<string, HTMLElement>} cards */
function drawWaiting(queue, now, cards) {
  for (const card of queue.cards) {
    const node = cards.get(card.session.id);
    if (!node) continue;
    within(node, ".waiting").textContent = `waiting ${duration(waitedSeconds(card, now))}`;
    within(node, ".offer-left").textContent = offerLeftWords(secondsLeft(card.session, card.receivedAt, now));
  }
  byId("queue-empty").hidden = queue.cards.length > 0;
  document.title = queue.cards.length ? interpolate(pgettext("agent", "(%(count)s) Incoming · %(title)s"), { count: queue.cards.length, title: BASE_TITLE }) : BASE_TITLE;
}

/** @param {AgentState["session"]} session */
function drawSessionHeader(session) {
  if (!session) {
    byId("end-notes", HTMLTextAreaElement).value = ""; // the next session starts with no notes
    byId("end-reason", HTMLSelectElement).value = ""; // and with no reason chosen for it
    byId("menu-search", HTMLInputElement).value = ""; // and the whole menu
    return;
  }
  byId("session-title").textContent = interpolate(pgettext("agent", "Session with %(kiosk)s"), { kiosk: session.kiosk.name });
  byId("session-where").textContent = [session.kiosk.location, session.business.name].filter(Boolean).join(" · ");
  const language = languageOf(session.customer_locale);
  byId("session-language").textContent = language ? interpolate(pgettext("agent", "Customer's language: %(language)s"), { language }) : "";
  byId("session-language").hidden = !language;
  const medium = mediumNote(session); // the accessible mode's line is accessible.js's, beside it
  byId("session-notes").replaceChildren(...(medium ? [medium] : []));
}

/** @param {AgentState["menu"]} categories @param {Actions} actions */
function drawMenu(categories, actions) {
  const root = byId("menu");
  redrawKeepingFocus(root, sameMenuButton, () => fillMenu(root, categories, actions));
}

/** The focused item's button, or its "Show", in a redrawn menu. @param {HTMLElement} focused */
export function sameMenuButton(focused) {
  const entry = focused.closest("li.menu-entry");
  const item = entry && entry.querySelector("button.menu-item");
  if (!(item instanceof HTMLElement)) return null;
  const button = `button.menu-item[data-item-id="${item.dataset.itemId}"]`;
  return focused === item ? button : `li.menu-entry:has(> ${button}) > button.show-item`;
}

/**
 * The menu's items as buttons that add to a cart (and "Show" it to the customer, where `show` is
 * given): the session in hand's, and an opened held card's (held-views.js).
 * @param {HTMLElement} root @param {AgentState["menu"]} categories @param {{choose(item: import("./state.js").MenuItem): void, show?: (item: import("./state.js").MenuItem) => void}} actions
 */
export function fillMenu(root, categories, actions) {
  const { show } = actions;
  root.replaceChildren();
  [...(categories || [])]
    .sort((a, b) => a.sort_order - b.sort_order)
    .forEach((category) => {
      const items = category.menu_items.map((item) =>
        el(
          "li",
          { class: "menu-entry" },
          el(
            "button",
            {
              type: "button",
              class: item.photo_url ? "menu-item has-photo" : "menu-item",
              "data-item-id": item.id,
              disabled: item.sold_out,
              "aria-label": [item.name, money(item.price_cents), item.sold_out ? pgettext("agent", "sold out") : "", stockWords(item)].filter(Boolean).join(", "),
              onclick: () => actions.choose(item),
            },
            item.photo_url ? el("img", { src: item.photo_url, alt: "", loading: "lazy" }) : null,
            el("span", { class: "name", text: item.name }),
            el("span", { class: "price", text: money(item.price_cents) }),
            el("span", { class: "description", text: item.sold_out ? pgettext("agent", "Sold out") : item.description }),
            stockWords(item) ? el("span", { class: "stock", text: stockWords(item) }) : null,
          ),
          show
            ? el("button", {
                type: "button",
                class: "show-item",
                text: pgettext("agent", "Show"),
                "aria-label": interpolate(pgettext("agent", "Show %(item)s to the customer"), { item: item.name }),
                onclick: () => show(item),
              })
            : null,
        ),
      );
      root.append(el("section", { class: "category" }, el("h3", { text: category.name }), el("ul", {}, items)));
    });
}

/** @param {AgentState} state @param {Actions} actions */
function drawCart(state, actions) {
  const { lines, order } = state;
  const locked = cartLocked(state);
  const currency = (order && order.currency) || "USD";
  const list = byId("cart-lines");
  redrawKeepingFocus(list, sameLineControl, () => fillCart(list, state, actions, { locked, currency }));
  const totals = order || { subtotal_cents: 0, tax_cents: 0, total_cents: 0 };
  byId("cart-subtotal").textContent = money(totals.subtotal_cents, currency);
  byId("cart-tax").textContent = money(totals.tax_cents, currency);
  byId("cart-total").textContent = money(totals.total_cents, currency);
  byId("send-payment", HTMLButtonElement).disabled = locked || !lines.length;
}

/** The same control (−, +, notes, Remove) of the same line in a redrawn cart. @param {HTMLElement} focused */
export function sameLineControl(focused) {
  const line = focused.closest("li[data-index]");
  const kind = ["decrease", "increase", "notes", "remove"].find((name) => focused.classList.contains(name));
  return line instanceof HTMLElement && kind ? `li[data-index="${line.dataset.index}"] .${kind}` : null;
}

/**
 * The cart editor's lines (−, +, notes, Remove, each line's refusal): the session in hand's, and an
 * opened held card's (held-views.js). @param {HTMLElement} list
 * @param {{lines: import("./cart-state.js").Line[], order: import("./cart-state.js").Order | null, lineErrors: import("./cart-state.js").LineErrors}} state
 * @param {{change(index: number, change: object): void}} actions @param {{ locked: boolean, currency: string }} cart
 */
export function fillCart(list, state, actions, { locked, currency }) {
  const { lines, order, lineErrors } = state;
  list.replaceChildren();
  lines.forEach((line, index) => {
    const server = order ? order.lines[index] : null; // the lines are the server's: a refusal went back to them
    const problems = lineErrors[String(index)] || [];
    const modifiers = modifierText(server ? server.modifiers : line.modifiers);
    list.append(
      el(
        "li",
        { class: problems.length ? "line invalid" : "line", "data-index": index },
        el("span", { class: "name", text: line.name }),
        server && server.customer_words
          ? el("span", { class: "customer-words", title: pgettext("agent", "What the customer reads"), text: `(${server.customer_words.name})` })
          : null,
        modifiers ? el("span", { class: "modifiers", text: modifiers }) : null,
        server ? el("span", { class: "price", text: money(server.unit_price_cents * server.quantity, currency) }) : null,
        el(
          "span",
          { class: "stepper" },
          el("button", {
            type: "button",
            class: "decrease",
            "aria-label": interpolate(pgettext("agent", "One less %(item)s"), { item: line.name }),
            text: "−",
            disabled: locked,
            onclick: () => actions.change(index, { quantity: line.quantity - 1 }),
          }),
          el("span", { class: "quantity", "aria-live": "polite", text: String(line.quantity) }),
          el("button", {
            type: "button",
            class: "increase",
            "aria-label": interpolate(pgettext("agent", "One more %(item)s"), { item: line.name }),
            text: "+",
            disabled: locked || line.quantity >= 99,
            onclick: () => actions.change(index, { quantity: line.quantity + 1 }),
          }),
        ),
        el("input", {
          class: "notes",
          "aria-label": interpolate(pgettext("agent", "Notes for %(item)s"), { item: line.name }),
          placeholder: pgettext("agent", "Notes"),
          maxlength: 500,
          value: line.notes,
          disabled: locked,
          onchange: (/** @type {Event} */ event) => actions.change(index, { notes: /** @type {HTMLInputElement} */ (event.target).value }),
        }),
        el("button", {
          type: "button",
          class: "remove",
          text: pgettext("agent", "Remove"),
          "aria-label": interpolate(pgettext("agent", "Remove %(item)s"), { item: line.name }),
          disabled: locked,
          onclick: () => actions.change(index, { quantity: 0 }),
        }),
        problems.length ? el("p", { class: "line-error", role: "alert", text: problems.join(" ") }) : null,
      ),
    );
  });
}

/** @param {AgentState} state @param {(text: string) => void} announce */
function drawPayment(state, announce) {
  const status = state.session ? state.session.status : "";
  const { state: shown, text } = paymentView(status, state.order, state.payment);
  const box = byId("payment");
  if (byId("payment-state").textContent !== text && text) announce(text);
  box.dataset.state = shown;
  byId("payment-state").textContent = text;
  byId("send-payment").hidden = status === "payment";
  byId("cancel-payment").hidden = status !== "payment";
}

/** @param {AgentState["ending"]["problem"]} problem */
function drawEnding(problem) {
  const words = endWords(problem);
  byId("end-problem").textContent = words;
  byId("end-problem").hidden = !words;
  byId("end-confirm").hidden = problem !== "unpaid";
  byId("end-session").hidden = problem === "unpaid";
}

/** The Transfer list: colleagues, then languages; what was chosen stays chosen. @param {AgentState["transfer"]["candidates"]} candidates */
function drawTransferChoices(candidates) {
  const select = byId("transfer-to", HTMLSelectElement);
  const chosen = select.value;
  const choices = transferChoices(candidates);
  const group = (/** @type {string} */ label, /** @type {string} */ kind) => {
    const options = choices.filter((choice) => choice.group === kind).map((choice) => el("option", { value: choice.value, text: choice.label }));
    return options.length ? el("optgroup", { label }, options) : null;
  };
  const empty = candidates && !choices.length ? pgettext("agent", "Nobody is free just now") : pgettext("agent", "Choose who takes over…");
  select.replaceChildren(el("option", { value: "", text: empty }), ...[group(pgettext("agent", "Colleagues"), "agent"), group(pgettext("agent", "Languages"), "language")].filter((node) => node !== null));
  if (choices.some((choice) => choice.value === chosen)) select.value = chosen;
}

/** @param {string} result */
function drawResult(result) {
  const node = byId("session-result");
  node.textContent = result;
  node.hidden = !result;
}

/** @param {AgentState["history"]} sessions */
function drawHistory(sessions) {
  if (!sessions) return;
  const rows = sessions.map((s) =>
    el(
      "tr",
      { "data-session-id": s.id },
      el("td", { text: clock(s.accepted_at) }),
      el("td", { text: s.kiosk.name }),
      el("td", { text: historyStatus(s) }),
      el("td", { text: s.total_cents === null ? "–" : money(s.total_cents, s.currency) }),
    ),
  );
  byId("history-rows").replaceChildren(...rows);
  byId("history-empty").hidden = rows.length > 0;
}

/** An ended session's status in words (said when needed), else the status itself. @type {Record<string, () => string>} */
const ENDED = {
  completed: () => pgettext("agent", "completed"),
  abandoned: () => pgettext("agent", "abandoned"),
  failed: () => pgettext("agent", "failed"),
};

/** What became of a session in "My sessions today": one handed to a colleague says to whom. */
const historyStatus = (/** @type {import("./state.js").HistoryRow} */ s) =>
  s.handed_over_to
    ? interpolate(pgettext("agent", "handed to %(name)s"), { name: s.handed_over_to.name })
    : s.ended_at
      ? (ENDED[s.status] || (() => s.status))()
      : pgettext("agent", "in progress");

/** @param {AgentState["today"]} today */
function drawToday(today) {
  const figures = byId("history-figures");
  figures.hidden = !today;
  if (!today) return;
  figures.replaceChildren(
    ...todayFigures(today).flatMap(([label, value]) => [el("dt", { text: label }), el("dd", { text: value })]),
  );
}

/** @param {AgentState["tokens"]} tokens @param {Actions} actions */
function drawTokens(tokens, actions) {
  if (!tokens) return;
  const items = tokens.map((token) =>
    el(
      "li",
      { "data-token-id": token.id },
      el("span", { text: interpolate(pgettext("agent", "%(name)s · created %(date)s"), { name: token.name, date: new Date(token.created_at).toLocaleDateString() }) }),
      el("span", { class: "note", text: ` · ${token.last_used_at ? interpolate(pgettext("agent", "last used %(time)s"), { time: clock(token.last_used_at) }) : pgettext("agent", "never used")}` }),
      el("button", { type: "button", text: pgettext("agent", "Revoke"), "aria-label": interpolate(pgettext("agent", "Revoke %(name)s"), { name: token.name }), onclick: () => actions.revoke(token) }),
    ),
  );
  byId("token-list").replaceChildren(...items);
  byId("tokens-empty").hidden = items.length > 0;
}

/** @param {string | null} iso */
function clock(iso) {
  return iso ? new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
}
