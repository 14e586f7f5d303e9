// Accessible mode's voice: the browser's speech synthesis (a headset on the kiosk's jack), in the
// customer's language, at the rate and volume the customer set by key. It speaks each screen as it
// appears, each focus change, errors and the cart's total as it changes; a key press interrupts it
// (keypad.js). The agent may have it read the cart aloud (CartReadAloud), in the mode or not.
// The words are spoken.js's; nothing here decides what is said.
import { watch } from "../common/store.js";
import { menuView } from "./menu.js";
import { gettext_noop, t } from "./messages.js";
import { cartWords, itemWords, paymentWords, screenWords, sentences, thanksLineWords } from "./spoken.js";
import { currentLine } from "./thanks-lines.js";
import { queueWords } from "./words.js";

/** @typedef {import("./state.js").KioskState} KioskState */

/** @param {import("../common/store.js").Store<KioskState>} store */
export function createSpeech(store) {
  const synth = "speechSynthesis" in window ? window.speechSynthesis : null;
  if (!synth) console.warn("this browser has no speech synthesis: accessible mode cannot speak");
  let last = "";

  /** @param {string} text @param {{interrupt?: boolean, always?: boolean}} [how] `always`: out of the mode too */
  function speak(text, { interrupt = false, always = false } = {}) {
    const { access, locale } = store.get();
    if (!(access.on || always) || !text || !synth) return;
    if (interrupt) synth.cancel();
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = locale;
    utterance.rate = access.rate;
    utterance.volume = access.volume;
    synth.speak(utterance);
    last = text;
  }

  /** The agent had the cart read aloud (CartReadAloud): the cart on screen and its total. @param {string} sessionId */
  function readCart(sessionId) {
    const { sessionId: current, order, locale } = store.get();
    if (current && sessionId === current) speak(cartWords(order, locale), { interrupt: true, always: true });
  }

  const cancel = () => synth && synth.cancel();
  const repeat = () => speak(sentences([screenWords(store.get()), focusWords(document.activeElement, store.get())]) || last, { interrupt: true });

  // Each screen as it appears, the payment step as it opens, the cart's total as it changes.
  watch(store, (s) => (s.access.on ? s.screen : null), (screen, s) => screen && speak(screenWords(s), { interrupt: true }));
  watch(store, (s) => (s.access.on && s.screen === "session" ? Boolean(s.payment) : null), (paying, s) => paying && speak(paymentWords(s), { interrupt: true }));
  store.subscribe((s, before) => {
    const changed = s.order && before.order && s.order.updated_at !== before.order.updated_at; // not the first read
    if (changed && s.screen === "session" && before.screen === "session" && !s.payment) speak(cartWords(s.order, s.locale));
  });
  watch(store, (s) => (s.status && s.status.agent ? s.status.agent.name : null), (name, s) => name && s.screen === "session" && speak(sentences([t(s.locale, "session.talking_to"), name])));
  // While waiting: the place in line as the server says it, and the offer to order alone.
  watch(store, (s) => (s.screen === "waiting" ? queueWords(s.status && s.status.status === "pending" ? s.status.queue : null, s.locale).place : ""), (place) => place && speak(place));
  watch(store, (s) => s.screen === "waiting" && s.aloneOffered, (offered, s) => offered && speak(t(s.locale, "access.waiting_alone")));
  // What went wrong, as soon as it is said on the screen.
  for (const pick of [(/** @type {KioskState} */ s) => s.alone.error, (/** @type {KioskState} */ s) => (s.payment ? s.payment.error : ""), (/** @type {KioskState} */ s) => s.attract.error, (/** @type {KioskState} */ s) => s.dining.error]) {
    watch(store, pick, (error) => error && speak(error, { interrupt: true }));
  }
  // The warnings before a timeout (app.js), with how to get more time.
  watch(store, (s) => s.stillThere.open, (open, s) => open && speak(sentences([t(s.locale, "still_there.title"), t(s.locale, "still_there.count", { seconds: s.stillThere.left }), t(s.locale, "access.more_time")]), { interrupt: true }));
  watch(store, (s) => s.returning.open, (open, s) => open && speak(sentences([t(s.locale, "returning.count", { seconds: s.returning.left }), t(s.locale, "access.more_time")]), { interrupt: true }));

  document.addEventListener("focusin", (event) => speak(focusWords(/** @type {Element} */ (event.target), store.get())));

  return { speak, cancel, repeat, readCart };
}

/**
 * What a control says when it gets the focus: a menu item its price and allergens, a demo card
 * its outcome, a field its label and value, any other control its name.
 * @param {Element | null} target @param {KioskState} state
 */
export function focusWords(target, state) {
  if (!(target instanceof HTMLElement) || target === document.body) return "";
  const { locale } = state;
  if (target.id === "thanks-lines") return sentences([target.getAttribute("aria-label"), thanksLineWords(state, currentLine(target))]);
  if (target.matches("li.menu-item")) {
    const currency = (state.order && state.order.currency) || null;
    const item = menuView(state.menu.body, locale, currency)
      .flatMap((category) => category.items)
      .find((candidate) => candidate.id === target.dataset.itemId);
    return item ? itemWords(item, locale) : "";
  }
  const card = target.closest(".test-cards li");
  if (card) return (card.textContent || "").replace(/\s+/g, " ").trim();
  if (target instanceof HTMLInputElement) {
    const label = (target.labels && target.labels[0] && target.labels[0].textContent) || target.getAttribute("aria-label") || "";
    const checked = target.type === "checkbox" || target.type === "radio" ? t(locale, target.checked ? gettext_noop("access.checked") : gettext_noop("access.not_checked")) : target.value;
    return sentences([label, checked]);
  }
  const name = target.getAttribute("aria-label") || (target.textContent || "").replace(/\s+/g, " ").trim();
  const pressed = target.getAttribute("aria-pressed") === "true" ? t(locale, "access.selected") : "";
  return sentences([name, pressed, target.matches(":disabled") && t(locale, "access.unavailable")]);
}
