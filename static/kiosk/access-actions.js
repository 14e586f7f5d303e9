// What each key of accessible mode does (keypad.js reads the key, access.js names the command):
// the mode on and off (the server's session says it), the voice's rate and volume, large text and
// contrast, back, + and -, and calling a person. Returns false for a key the page handles itself
// (Enter on a button, Escape in a dialog).
import { logFailure } from "../common/report.js";
import { ACCESS_OFF, stepRate, stepVolume } from "./access.js";
import { gettext_noop, t } from "./messages.js";
import { screenWords, sentences } from "./spoken.js";
import { queueWords } from "./words.js";

/** @typedef {import("./state.js").KioskState} KioskState @typedef {import("./access.js").Command} Command */

/**
 * @param {object} deps
 * @param {import("../common/store.js").Store<KioskState>} deps.store
 * @param {ReturnType<typeof import("./speech.js").createSpeech>} deps.speech
 * @param {ReturnType<typeof import("./session.js").createSession>} deps.session
 * @param {ReturnType<typeof import("./alone.js").createAlone>} deps.alone
 * @param {() => void} deps.extend answers a timeout's warning (app.js)
 * @param {() => void} deps.callPerson starts a session with a person from the attract or a finished screen (app.js)
 */
export function createAccessActions({ store, speech, session, alone, extend, callPerson }) {
  const say = (/** @type {string} */ key, /** @type {Record<string, string | number>} */ values = {}) => speech.speak(t(store.get().locale, key, values), { interrupt: true });
  /** @param {Partial<import("./access.js").Access>} change */
  const setAccess = (change) => store.set(({ access }) => ({ access: { ...access, ...change } }));

  /** @param {boolean} on */
  function turn(on) {
    const { access, locale } = store.get();
    if (access.on === on) return;
    if (!on) say("access.off"); // said while the voice is still on
    setAccess(on ? { on } : { ...ACCESS_OFF, largeText: access.largeText, highContrast: access.highContrast });
    if (on) speech.speak(sentences([t(locale, "access.on"), screenWords(store.get()), t(locale, "access.keys")]), { interrupt: true });
    // Once the server knows, its pending timeout is asked for again (`extend`): the mode doubles
    // it, and turning it off must not leave the kiosk counting on the doubled time.
    if (session.isOpen()) session.changeAccessible(on).then(extend, (error) => logFailure("telling the server about accessible mode", error));
  }

  /** @param {HTMLElement | null} target */
  function back(target) {
    const dialog = document.querySelector("dialog[open]");
    if (dialog instanceof HTMLDialogElement) {
      if (target && target.matches("input[type=text], input:not([type])")) return false;
      if (dialog.id !== "still-there") dialog.close(); // its close listener puts the state right; Escape does it natively
      return true;
    }
    const way = ["#alone-back", "#leave-session", "#cancel-waiting", "#thanks-done", "#ended-done"]
      .map((selector) => /** @type {HTMLButtonElement | null} */ (document.querySelector(selector)))
      .find((button) => button && !button.disabled && button.getClientRects().length > 0 && !button.closest("[hidden]"));
    if (way) way.click();
    else speech.repeat();
    return true;
  }

  /** @param {HTMLElement | null} target @param {1 | -1} delta */
  function quantity(target, delta) {
    const line = target && target.closest("#cart-lines li");
    const button = line && line.querySelector(`button.line-change[data-delta="${delta}"]`);
    if (button instanceof HTMLButtonElement) {
      button.click();
      return true;
    }
    const item = target && target.closest("[data-item-id]");
    const itemId = item instanceof HTMLElement ? item.dataset.itemId : "";
    const { alone: ordering, payment } = store.get();
    if (!itemId || !ordering.on || payment) return false;
    if (delta > 0) return alone.choose(itemId), true;
    const index = ordering.lines.map((line) => line.menu_item_id).lastIndexOf(itemId);
    if (index < 0) say("access.not_in_cart");
    else alone.change(index, -1);
    return true;
  }

  /** @param {HTMLElement | null} target */
  function choose(target) {
    if (!target) return false;
    const { alone: ordering } = store.get();
    if (target.matches("li.menu-item") && ordering.on && !target.matches(".sold-out")) return alone.choose(target.dataset.itemId || ""), true;
    if (target.matches("input[type=checkbox], input[type=radio]")) return target.click(), true;
    const pay = document.getElementById("pay");
    if (target.id === "card-number" && pay instanceof HTMLButtonElement) return pay.click(), true;
    return false;
  }

  function person() {
    const { screen, status, alone: ordering, locale } = store.get();
    if (screen === "attract" || screen === "thanks" || screen === "ended") return callPerson();
    const agent = status && status.agent;
    if (agent && !ordering.on) return say("access.person_here", { name: agent.name });
    const { place } = queueWords(status && status.status === "pending" ? status.queue : null, locale);
    speech.speak(sentences([t(locale, "access.person_coming"), place]), { interrupt: true });
  }

  /** @param {Command | "start" | "extend"} command @param {HTMLElement | null} target @returns {boolean} */
  function act(command, target) {
    const { access } = store.get();
    if (command !== "choose" && command !== "back") speech.cancel(); // a key interrupts the voice
    switch (command) {
      case "start":
        return turn(true), true;
      case "leave":
        return turn(false), true;
      case "extend":
        return extend(), true;
      case "repeat":
        return speech.repeat(), true;
      case "slower":
      case "faster":
        setAccess(stepRate(access, command === "faster" ? 1 : -1));
        return say("access.rate", { percent: Math.round(store.get().access.rate * 100) }), true;
      case "quieter":
      case "louder":
        setAccess(stepVolume(access, command === "louder" ? 1 : -1));
        return say("access.volume", { percent: Math.round(store.get().access.volume * 100) }), true;
      case "large_text":
        setAccess({ largeText: !access.largeText });
        return say(access.largeText ? gettext_noop("access.large_text_off") : gettext_noop("access.large_text_on")), true;
      case "contrast":
        setAccess({ highContrast: !access.highContrast });
        return say(access.highContrast ? gettext_noop("access.contrast_off") : gettext_noop("access.contrast_on")), true;
      case "person":
        return person(), true;
      case "more":
      case "less":
        return quantity(target, command === "more" ? 1 : -1);
      case "back":
        return back(target);
      case "choose":
        return choose(target);
      default:
        return false;
    }
  }

  return { act, turn, setAccess };
}
