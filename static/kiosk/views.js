// The kiosk's UI modules: each draws one part of the page from the store (never reads the page
// back as state). Exactly one screen shows at a time, and <body data-screen> says which (the
// tests and the stylesheet read it). The thank-you screen is receipt.js's.
import { money } from "../common/format.js";
import { watch } from "../common/store.js";
import { $$, byId, el, redrawKeepingFocus, showError } from "../common/ui.js";
import { readableBrand } from "./access.js";
import { cartView } from "./cart.js";
import { cartLineElement } from "./cart-line.js";
import { menuView } from "./menu.js";
import { CATALOGS, gettext_noop, LANGUAGE_NAMES, LOCALES, t } from "./messages.js";
import { agentSendRefused, cardFieldsInsteadNote, currentReader, offersCardFields, onReader, readerRefusal, readerView } from "./reader.js";
import { groupRule, optionLabel } from "./self-service.js";
import { connectionLost, queueWords, videoWords } from "./words.js";

/** @typedef {import("./state.js").KioskState} KioskState */
/** @typedef {import("../common/store.js").Store<KioskState>} KioskStore */

const BRAND_COLOUR = /^#[0-9a-f]{3,8}$|^[a-z]+$|^(rgb|hsl)a?\([\d\s.,%]+\)$/i;

/** @param {KioskStore} store */
export function renderKiosk(store) {
  drawLanguageButtons();
  watch(store, (s) => s.screen, drawScreen);
  watch(store, (s) => s.pairing, drawPairing);
  watch(store, (s) => s.profile, drawProfile);
  // The language applies at once to every screen: the fixed words, then each part that says something.
  watch(store, (s) => s.locale, (locale, s) => {
    drawLocale(locale);
    drawPairing(s.pairing, s);
    drawProfile(s.profile, s);
    drawNetwork(s.network, s);
    drawVideo(s.video, s);
    drawCart(s.order, s);
    drawPayment(s.payment, s);
    drawReaderRefusal(s);
    drawStillThere(s.stillThere, s);
    drawMenu(s.menu, s);
    drawPlaceInLine(s.status && s.status.status === "pending" ? s.status.queue : null, s);
    drawAlone(s.alone, s);
    drawPicking(s.alone.picking, s, true);
  });
  watch(store, (s) => s.menu, drawMenu);
  watch(store, (s) => (s.order ? s.order.currency : null), (_, s) => drawMenu(s.menu, s)); // prices in the order's currency
  watch(store, (s) => s.attract, drawAttract);
  watch(store, (s) => s.status, drawAgent);
  // A transfer names the new agent in the menu's hint at once (not on the next menu read).
  watch(store, (s) => (s.status && s.status.agent ? s.status.agent.name : null), (_, s) => drawMenu(s.menu, s));
  watch(store, (s) => (s.status && s.status.status === "pending" ? s.status.queue : null), drawPlaceInLine);
  watch(store, (s) => s.order, (order, s) => (drawCart(order, s), drawAlone(s.alone, s))); // Pay needs a cart
  watch(store, (s) => s.payment, drawPayment);
  watch(store, (s) => (s.status ? s.status.payment : null), (_, s) => drawPayment(s.payment, s)); // the reader's reports
  watch(store, (s) => (s.status && s.status.status === "active" ? s.status.reader_refusal : null), (_, s) => drawReaderRefusal(s));
  watch(store, (s) => s.ended, drawEnded);
  watch(store, (s) => s.video, drawVideo);
  watch(store, (s) => s.live, (live) => live !== null && (document.body.dataset.realtime = live ? "live" : "polling"));
  watch(store, (s) => s.network, drawNetwork);
  watch(store, (s) => s.stillThere, drawStillThere);
  watch(store, (s) => s.leaving, drawLeaving);
  watch(store, (s) => s.aloneOffered, (offered) => (byId("alone-offer").hidden = !offered));
  watch(store, (s) => s.alone, drawAlone);
  watch(store, (s) => s.alone.on, (_, s) => (drawMenu(s.menu, s), drawCart(s.order, s)));
  watch(store, (s) => Boolean(s.payment), (_, s) => (drawAlone(s.alone, s), drawCart(s.order, s)));
  watch(store, (s) => s.alone.picking, (picking, s) => drawPicking(picking, s, false));
}

/** @param {KioskState["screen"]} screen */
function drawScreen(screen) {
  $$("section.screen").forEach((section) => (section.hidden = section.dataset.screen !== screen));
  document.body.dataset.screen = screen;
  // One set of language buttons, moved to the screen shown (pairing, attract, waiting, session).
  const slot = document.querySelector(`section.screen[data-screen="${screen}"] .language-slot`);
  if (slot) slot.append(byId("languages"));
  if (screen === "pairing") {
    byId("pairing-code", HTMLInputElement).value = "";
    byId("pairing-code").focus();
  }
}

/** @param {KioskState["pairing"]} pairing @param {KioskState} state */
function drawPairing({ reason, error, busy }, { locale }) {
  const note = byId("pairing-reason");
  note.textContent = reason ? t(locale, reason) : "";
  note.hidden = !reason;
  showError(byId("pairing-error"), error);
  byId("pairing-submit", HTMLButtonElement).disabled = busy;
}

/**
 * The business's look. Its attract line: the owner's own words as written, unless it is still the
 * default line, which is the kiosk's own and so reads in the customer's language.
 * @param {KioskState["profile"]} profile @param {KioskState} state
 */
function drawProfile(profile, { locale }) {
  if (!profile) return;
  const { business, settings } = profile;
  byId("business-name").textContent = business.name;
  document.title = business.name;
  const logo = byId("business-logo", HTMLImageElement);
  logo.hidden = !business.logo_url;
  if (business.logo_url && logo.getAttribute("src") !== business.logo_url) logo.src = business.logo_url;
  const message = settings.attract_message || "";
  const isDefault = !message.trim() || message.trim() === CATALOGS.en["attract.message"];
  byId("attract-message").textContent = isDefault ? t(locale, "attract.message") : message;
  const colour = settings.primary_color || "";
  if (BRAND_COLOUR.test(colour)) {
    // The panel's #rrggbb, darkened when too light for 4.5:1 (access.js); other forms as given.
    document.documentElement.style.setProperty("--brand", /^#[0-9a-f]{6}$/i.test(colour) ? readableBrand(colour) : colour);
  }
}

/** The language buttons, each language named in itself (messages.js). */
function drawLanguageButtons() {
  byId("languages").replaceChildren(
    ...LOCALES.map((locale) =>
      el("button", { type: "button", class: "language", "data-locale": locale, lang: locale.split("-")[0], "aria-pressed": "false", text: LANGUAGE_NAMES[/** @type {keyof typeof LANGUAGE_NAMES} LOCALES are its keys */ (locale)] }),
    ),
  );
}

/** Every fixed text of the customer's screens (data-i18n="key", static/kiosk/messages.js). @param {string} locale */
function drawLocale(locale) {
  $$("button.language").forEach((button) => button.setAttribute("aria-pressed", String(button.dataset.locale === locale)));
  document.documentElement.lang = locale.split("-")[0];
  $$("[data-i18n]").forEach((node) => (node.textContent = t(locale, node.dataset.i18n || "")));
  $$("[data-i18n-label]").forEach((node) => node.setAttribute("aria-label", t(locale, node.dataset.i18nLabel || "")));
}

/** @param {KioskState["attract"]} attract */
function drawAttract({ error, starting }) {
  showError(byId("attract-error"), error);
  byId("start", HTMLButtonElement).disabled = starting;
  byId("start-chat", HTMLButtonElement).disabled = starting;
}

/** The agent, from the status body (kept when the session closes: its screen is hidden then). @param {KioskState["status"]} status */
function drawAgent(status) {
  if (!status || (status.status !== "active" && status.status !== "payment") || !status.agent) return;
  const agent = status.agent || { name: "Our team" };
  byId("agent-name").textContent = agent.name;
  const avatar = byId("agent-avatar", HTMLImageElement);
  avatar.hidden = !agent.avatar_url;
  if (agent.avatar_url) avatar.src = agent.avatar_url;
}

/** The place in line while waiting (nothing shown before the server says it). @param {NonNullable<KioskState["status"]>["queue"]} queue @param {KioskState} state */
function drawPlaceInLine(queue, { locale }) {
  const { place, agents } = queueWords(queue, locale);
  byId("waiting-place").textContent = place;
  byId("waiting-place").hidden = !place;
  byId("waiting-agents").textContent = agents;
  byId("waiting-agents").hidden = !agents;
  byId("alone-place").textContent = place; // ordering alone keeps the place in line
}

/** @param {KioskState["order"]} order @param {KioskState} state */
function drawCart(order, { locale, alone, payment }) {
  const cart = cartView(order, locale);
  const list = byId("cart-lines");
  const editable = alone.on && !payment; // the customer alone changes quantities; the agent's cart is read-only
  // Drawn anew on every answer (and again on OrderUpdated): the − or + keeps the focus.
  const sameButton = (/** @type {HTMLElement} */ b) => `button.line-change[data-index="${b.dataset.index}"][data-delta="${b.dataset.delta}"]`;
  redrawKeepingFocus(list, sameButton, () =>
    list.replaceChildren(
      ...cart.lines.map((line, index) => cartLineElement(line, editable ? lineButtons(index, line.name, locale) : null)),
    ),
  );
  byId("cart-empty").hidden = !cart.empty;
  byId("cart-subtotal").textContent = cart.subtotal;
  byId("cart-tax").textContent = cart.tax;
  byId("cart-total").textContent = cart.total;
  list.dataset.updatedAt = cart.updatedAt;
}

/** − and + of a line of the cart built alone. @param {number} index @param {string} name @param {string} locale */
function lineButtons(index, name, locale) {
  const button = (/** @type {number} */ delta, /** @type {string} */ text, /** @type {string} */ key) =>
    el("button", { type: "button", class: "line-change", "data-index": index, "data-delta": delta, "aria-label": t(locale, key, { name }), text });
  return el("span", { class: "line-buttons" }, button(-1, "−", gettext_noop("alone.less")), button(1, "+", gettext_noop("alone.more")));
}

/** Ordering alone: the note in place of the agent, the pay and back buttons, what went wrong. @param {KioskState["alone"]} alone @param {KioskState} state */
function drawAlone(alone, { order, payment }) {
  document.body.dataset.alone = String(alone.on); // kiosk.css hides the agent and video while alone
  byId("alone-pane").hidden = !alone.on;
  byId("alone-actions").hidden = !alone.on;
  const empty = !(order && order.lines && order.lines.length);
  const pay = byId("alone-pay", HTMLButtonElement);
  pay.hidden = Boolean(payment);
  pay.disabled = alone.busy || empty;
  const back = byId("alone-back", HTMLButtonElement);
  back.hidden = !payment;
  back.disabled = alone.busy || (payment ? payment.state === "processing" : false);
  showError(byId("alone-error"), alone.error);
}

/**
 * The options of the item being added. The fields are built when the item changes and only
 * ticked afterwards, so the focus stays where the customer is.
 * @param {KioskState["alone"]["picking"]} picking @param {KioskState} state @param {boolean} rebuild
 */
function drawPicking(picking, { locale, menu, order }, rebuild) {
  const dialog = byId("item-options", HTMLDialogElement);
  if (!picking) {
    delete dialog.dataset.itemId;
    if (dialog.open) dialog.close();
    return;
  }
  const item = findItem(menu.body, picking.itemId);
  if (!item) return;
  if (rebuild || dialog.dataset.itemId !== picking.itemId) {
    dialog.dataset.itemId = picking.itemId;
    const currency = (order && order.currency) || null; // no guessed symbol: the menu's prices are the same
    byId("item-options-title").textContent = t(locale, "alone.options_title", { name: item.name });
    byId("item-options-groups").replaceChildren(
      ...(item.modifier_groups || []).map((group) =>
        el(
          "fieldset",
          { class: "group", "data-group-id": group.id },
          el("legend", { text: `${group.name} (${groupRule(group, locale)})` }),
          ...group.options.map((option) =>
            el(
              "label",
              { class: "option" },
              el("input", { type: group.max === 1 ? "radio" : "checkbox", name: `group-${group.id}`, value: option.id }),
              ` ${optionLabel(option, currency, locale)}`,
            ),
          ),
        ),
      ),
    );
  }
  $$("#item-options-groups input").forEach((input) => {
    /** @type {HTMLInputElement} */ (input).checked = picking.chosen.includes(/** @type {HTMLInputElement} */ (input).value);
  });
  showError(byId("item-options-error"), picking.error);
  if (!dialog.open) {
    dialog.showModal();
    const first = dialog.querySelector("input");
    if (first) first.focus();
  }
}

/** @param {any} body @param {string} itemId @returns {import("./self-service.js").Item | null} */
function findItem(body, itemId) {
  for (const category of (body && body.categories) || []) {
    const item = category.menu_items.find((/** @type {any} */ candidate) => candidate.id === itemId);
    if (item) return item;
  }
  return null;
}

/**
 * The payment box; the card fields inside #payment-form are the payment method's. On a card
 * reader: what to do on it, its name and state, a decline in the customer's words (reader.js).
 * @param {KioskState["payment"]} payment @param {KioskState} state
 */
function drawPayment(payment, { locale, status }) {
  const box = byId("payment");
  box.hidden = !payment;
  byId("leave-session").hidden = Boolean(payment); // only the agent may cancel a payment
  byId("screen-session").dataset.paying = String(Boolean(payment)); // the compact layout (kiosk.css)
  box.dataset.state = payment ? payment.state : "none";
  if (!payment) return showError(byId("payment-error"), "");
  box.dataset.mode = payment.mode;
  byId("payment-demo-note").hidden = payment.mode !== "demo"; // its words are the catalogue's (data-i18n)
  byId("payment-amount").textContent = t(locale, "pay.amount", { amount: money(payment.amount_cents, payment.currency, locale) });
  byId("payment-state").textContent = payment.stateText;
  const reader = onReader(payment);
  box.dataset.method = reader ? "card_present" : "card";
  const insteadNote = cardFieldsInsteadNote(payment, locale); // card fields standing in for the reader
  byId("payment-reader").hidden = !reader && !insteadNote;
  if (insteadNote) {
    byId("payment-reader").dataset.state = "instead";
    byId("reader-instruction").textContent = "";
    byId("reader-label").textContent = "";
    byId("reader-note").textContent = insteadNote;
    const instead = byId("payment-reader").querySelector("#reader-card-fields");
    if (instead) /** @type {HTMLElement} */ (instead).hidden = true;
  }
  if (reader) {
    const view = readerView(currentReader(payment, status), locale);
    byId("payment-reader").dataset.state = view.state;
    byId("reader-instruction").textContent = view.instruction;
    byId("reader-label").textContent = view.label;
    byId("reader-note").textContent = view.note;
    // Only where the owner allows it, and only while the reader cannot take the card.
    const readerBox = byId("payment-reader");
    let instead = /** @type {HTMLButtonElement | null} */ (readerBox.querySelector("#reader-card-fields"));
    if (!instead) {
      instead = /** @type {HTMLButtonElement} */ (el("button", { id: "reader-card-fields", type: "button", class: "secondary" }));
      readerBox.append(instead);
    }
    instead.hidden = !offersCardFields(payment, currentReader(payment, status));
    instead.disabled = payment.state === "processing";
    instead.textContent = t(locale, "reader.card_fields_instead");
  }
  showError(byId("payment-error"), reader && payment.state === "declined" ? readerRefusal(payment.failure_code, locale) : payment.error);
  const form = byId("payment-form");
  let button = /** @type {HTMLButtonElement | null} */ (form.querySelector("#pay"));
  if (payment.mounted && !button && !reader) {
    button = /** @type {HTMLButtonElement} */ (el("button", { id: "pay", type: "button", class: "primary huge" }));
    form.append(button);
  }
  if (button) button.textContent = t(locale, "pay.button");
  if (button) button.disabled = payment.state === "processing";
}

/**
 * The reader refused the agent's send to payment: what happened and that the agent tries again,
 * beside the cart (no payment box is open then), until a send goes through or the session moves on.
 * @param {KioskState} state
 */
function drawReaderRefusal({ status, locale }) {
  const refusal = status && status.status === "active" ? status.reader_refusal : null;
  const note = byId("reader-refusal");
  note.textContent = agentSendRefused(refusal, status && status.agent ? status.agent.name : "", locale);
  note.hidden = !note.textContent;
}

/** @param {KioskState["ended"]} ended */
function drawEnded(ended) {
  if (!ended) return;
  byId("ended-title").textContent = ended.title;
  byId("ended-message").textContent = ended.message;
  byId("screen-ended").dataset.reason = ended.reason;
}

/** @param {KioskState["network"]} network @param {KioskState} state */
function drawNetwork({ offline, retryIn }, { locale }) {
  const banner = byId("network-banner");
  banner.hidden = !offline;
  if (offline) banner.textContent = connectionLost(retryIn, locale);
}

/** The video's state in words, in the customer's language now (not the one it changed in). @param {KioskState["video"]} video @param {KioskState} state */
function drawVideo(video, { locale }) {
  byId("video-state").textContent = videoWords(/** @type {any} */ (video.state), video.detail, locale);
}

/** @param {KioskState["stillThere"]} stillThere @param {KioskState} state */
function drawStillThere({ open, left }, { locale }) {
  const dialog = byId("still-there", HTMLDialogElement);
  byId("still-there-count").textContent = t(locale, "still_there.count", { seconds: left });
  if (open && !dialog.open) dialog.showModal();
  if (!open && dialog.open) dialog.close();
}

/** @param {boolean} leaving */
function drawLeaving(leaving) {
  const dialog = byId("leave-confirm", HTMLDialogElement);
  if (leaving && !dialog.open) dialog.showModal();
  if (!leaving && dialog.open) dialog.close();
}

/** The menu beside the agent, in the customer's language. @param {KioskState["menu"]} menu @param {KioskState} state */
function drawMenu(menu, { locale, order, status, alone }) {
  const agentName = (status && status.agent && status.agent.name) || t(locale, "session.someone");
  const hint = byId("kiosk-menu-hint");
  const hintKey = menu.error ? gettext_noop("menu.unavailable") : alone.on ? gettext_noop("alone.menu_hint") : gettext_noop("menu.hint");
  hint.textContent = t(locale, hintKey, { name: agentName });
  const currency = (order && order.currency) || null;
  const list = byId("kiosk-menu-categories");
  // Drawn anew on each change: the item or its Add button keeps the focus (the keypad carries on).
  const same = (/** @type {HTMLElement} */ node) => (node.dataset.itemId ? `${node.tagName.toLowerCase()}.${node.classList[0]}[data-item-id="${node.dataset.itemId}"]` : null);
  redrawKeepingFocus(list, same, () => list.replaceChildren(
    ...menuView(menu.body, locale, currency).map((category) =>
      el(
        "section",
        { class: "menu-category", "data-category-id": category.id },
        el("h3", { text: category.name }),
        el(
          "ul",
          { class: "menu-items" },
          category.items.map((item) =>
            el(
              "li",
              // Focusable: a tap or Enter points the agent at it (shown-item.js).
              { class: item.soldOut ? "menu-item sold-out" : "menu-item", "data-item-id": item.id, tabindex: "0" },
              item.photoUrl
                ? el("img", { class: "photo", src: item.photoUrl, alt: "", loading: "lazy" })
                : el("span", { class: "photo placeholder", "aria-hidden": "true", text: t(locale, "menu.no_photo") }),
              el("span", { class: "name", text: item.name }),
              el("span", { class: "price", text: item.price }),
              item.description ? el("p", { class: "description", text: item.description }) : null,
              item.allergens ? el("p", { class: "allergens", text: item.allergens }) : null,
              item.dietary.length ? el("p", { class: "tags" }, item.dietary.map((tag) => el("span", { class: "tag", text: tag }))) : null,
              item.soldOut ? el("p", { class: "sold-out-note", text: t(locale, "menu.sold_out") }) : null,
              alone.on && !item.soldOut
                ? el("button", { type: "button", class: "add-item", "data-item-id": item.id, "aria-label": t(locale, "alone.add_item", { name: item.name }), text: t(locale, "alone.add") })
                : null,
            ),
          ),
        ),
      ),
    ),
  ));
}
