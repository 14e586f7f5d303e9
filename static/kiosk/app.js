// The kiosk app: pairing once, then the attract screen, a customer's session, back to attract.
// Everything comes from the kiosk API (api.js, any origin) and the kiosk's real-time channel,
// and goes into the one store (state.js); views.js draws it. main.js loads this module.
import { asFailure, logFailure } from "../common/report.js";
import { ACCESS_OFF, timeScale } from "./access.js";
import { createAccessActions } from "./access-actions.js";
import { renderAccess } from "./access-view.js";
import { chime } from "./chime.js";
import { createKeypad } from "./keypad.js";
import { createSpeech } from "./speech.js";
import { announce, byId, clearAnnouncer } from "../common/ui.js";
import { createAlone } from "./alone.js";
import { api, get, on, post } from "./api.js";
import { createChat, renderChat } from "./chat.js";
import { createChatSession } from "./chat-session.js";
import { device } from "./device.js";
import { createDining, renderDining } from "./dining.js";
import { suggestName, tryPairing } from "./pairing.js";
import { KioskRealtime } from "./realtime.js";
import { createServerTimeout } from "./server-timeout.js";
import { createSession } from "./session.js";
import { createShownItem } from "./shown-item.js";
import { config } from "./settings.js";
import { createReceipt, renderThanks } from "./receipt.js";
import { createReceiptPrint, renderReceiptPrint } from "./receipt-print.js";
import { createThanksLines } from "./thanks-lines.js";
import { loadCatalogs } from "./messages.js";
import { createKioskStore } from "./state.js";
import { inactivityApplies, leavingAsks } from "./status.js";
import { createVideo } from "./video.js";
import { renderKiosk } from "./views.js";
import { nextBackoff, startRefusal, UNPAIRED_BY_OWNER } from "./words.js";

// The words before anything is drawn: the four languages' catalogues, once (messages.js). When
// they cannot be read this module fails to load, and main.js says so and starts over.
await loadCatalogs((language) => api("GET", `/api/public/i18n/${language}`, undefined, { signed: false }));

const store = createKioskStore();
// Accessible mode's voice: what the other modules announce is spoken too while the mode is on.
const speech = createSpeech(store);
const say = (/** @type {string} */ text) => (announce(text), speech.speak(text));
/** Every time limit the customer meets, doubled in accessible mode. @param {number} seconds */
const scaled = (seconds) => seconds * timeScale(store.get().access);
const chat = createChat({ store, get, post });
const video = createVideo(store, { pane: byId("video"), localVideo: byId("local-video"), remoteVideo: byId("remote-video") }, chat.onChat);
const session = createSession({ store, config, video, paymentForm: byId("payment-form"), announce: say, onFinished: finished });
const alone = createAlone({ store, session, announce: say });
const realtime = new KioskRealtime({
  onEvent: (name, data) => (name === "CartReadAloud" ? speech.readCart(String(data.session_id)) : session.onEvent(name, data)),
  onLive: (live, reconnected) => session.setLive(live, reconnected),
});
/** Timers are not state: they only schedule actions. */
const timers = { heartbeat: 0, idle: 0, return: 0, returning: 0, retry: 0, countdown: 0, stillThere: 0, alone: 0, typing: 0 };

// --- pairing and unpairing ------------------------------------------------------------------
function boot() {
  if (!device.paired) return askToPair("");
  store.set({ profile: device.profile });
  startPaired();
}

/** @param {string} reason */
function askToPair(reason) {
  stopEverything();
  store.set({ pairing: { reason, error: "", busy: false }, screen: "pairing" });
  suggestName(byId("pairing-name", HTMLInputElement));
}

byId("pairing-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (store.get().screen !== "pairing" || store.get().pairing.busy) return;
  const code = byId("pairing-code", HTMLInputElement).value;
  const name = byId("pairing-name", HTMLInputElement).value;
  const result = await tryPairing(store, { code, name });
  if (!result) return;
  device.pairedWith(result);
  store.set({ profile: device.profile });
  startPaired();
});

async function startPaired() {
  realtime.start();
  startHeartbeat();
  const resumed = await session.resumeAfterReload().catch((error) => {
    logFailure("resuming the session open before the reload", error);
    return false;
  });
  if (!resumed) return goToAttract();
  refreshProfile();
  const { status } = store.get(); // the customer's accessible mode outlives a reload
  if (status && status.accessible_mode) store.set(({ access }) => ({ access: { ...access, on: true } }));
}

function stopEverything() {
  realtime.stop();
  window.clearInterval(timers.heartbeat);
  stopReturn();
  if (store.get().sessionId) session.close();
  closeStillThere();
}

on("unpaired", (error) => {
  if (error.code !== "DEVICE_TOKEN_INVALID" || !device.paired) return;
  device.forget();
  askToPair(UNPAIRED_BY_OWNER);
});

// --- the business's look, refreshed from the server ----------------------------------------
byId("business-logo").addEventListener("error", (event) => (/** @type {HTMLElement} */ (event.target).hidden = true));

async function refreshProfile() {
  try {
    device.remember(await get("/api/public/kiosks/me"));
    store.set({ profile: device.profile });
  } catch (error) {
    // A 401 goes to pairing, a lost network to the banner; otherwise the last known look stays.
    logFailure("refreshing the business's look", error);
  }
}

// --- idle: attract screen, heartbeats, language ---------------------------------------------
/** Back to the start for the next customer: the language and the display back to theirs too
 * (`keepAccess`: the same customer asked for a person from a finished screen). */
function goToAttract({ keepAccess = false } = {}) {
  stopReturn();
  window.clearTimeout(timers.typing);
  const access = keepAccess ? store.get().access : ACCESS_OFF;
  store.set({ locale: keepAccess ? store.get().locale : "en-US", attract: { error: "", starting: false }, access, screen: "attract" });
  if (!keepAccess) clearAnnouncer();
  refreshProfile();
}

function startHeartbeat() {
  window.clearInterval(timers.heartbeat);
  timers.heartbeat = window.setInterval(() => {
    if (session.isOpen()) return; // its polls and calls count as heartbeats
    post("/api/public/kiosks/heartbeat").catch((error) => logFailure("the heartbeat", error));
    if (store.get().screen === "attract") refreshProfile();
  }, config.heartbeatSeconds * 1000);
}

// The language buttons of every screen (views.js draws them): before a session the choice is the
// kiosk's alone; during one the session's language changes too (the agent sees it, the menu follows).
document.addEventListener("click", (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest("button.language");
  if (!(button instanceof HTMLElement) || !button.dataset.locale) return;
  if (session.isOpen()) session.changeLocale(button.dataset.locale).catch((error) => logFailure("changing the language", error));
  else store.set({ locale: button.dataset.locale });
});

byId("start").addEventListener("click", () => startSession());
byId("start-chat").addEventListener("click", () => startSession("chat"));

/** @param {"video" | "chat"} [medium] chat: the customer writes to the agent, no camera */
async function startSession(medium = "video") {
  if (store.get().attract.starting) return;
  store.set({ attract: { error: "", starting: true } });
  try {
    await session.start(store.get().locale, medium);
    store.set({ attract: { error: "", starting: false } });
  } catch (error) {
    // A 401 goes to pairing (the "unpaired" listener); everything else is said on the screen.
    const failure = asFailure(error);
    const words = failure.status === 401 ? "" : startRefusal(failure, store.get().locale);
    if (!words) logFailure("starting a session", error);
    store.set({ attract: { error: words, starting: false } });
  }
}

const walkAway = (/** @type {string} */ what) => () => session.cancel("").catch((error) => logFailure(what, error));
byId("cancel-waiting").addEventListener("click", walkAway("cancelling while waiting"));
byId("leave-session").addEventListener("click", () => {
  if (leavingAsks(store.get().order)) return store.set({ leaving: true });
  walkAway("leaving the session")();
});
byId("leave-confirm-yes").addEventListener("click", () => {
  store.set({ leaving: false });
  walkAway("leaving the session")();
});
byId("leave-confirm-no").addEventListener("click", () => store.set({ leaving: false }));
byId("leave-confirm").addEventListener("close", () => store.set({ leaving: false }));
byId("thanks-done").addEventListener("click", () => goToAttract());
byId("ended-done").addEventListener("click", () => goToAttract());
byId("payment-reader").addEventListener("click", (event) => {
  if (/** @type {HTMLElement} */ (event.target).id === "reader-card-fields") session.payWithCardFields();
});
byId("payment-form").addEventListener("click", (event) => {
  if (/** @type {HTMLElement} */ (event.target).id === "pay") session.pay();
});

// --- ordering alone while waiting (alone.js) ---------------------------------------------------
// Whether the waiting screen offers it: at every status and place change, and each second (the
// wait grows with the clock).
store.subscribe((now, before) => {
  if (now.status !== before.status) alone.check();
});
timers.alone = window.setInterval(() => store.get().screen === "waiting" && alone.check(), 1000);
byId("order-alone").addEventListener("click", () => alone.start().catch((error) => logFailure("ordering alone", error)));
byId("kiosk-menu-categories").addEventListener("click", (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest("button.add-item");
  if (button instanceof HTMLElement && button.dataset.itemId) alone.choose(button.dataset.itemId);
});
byId("cart-lines").addEventListener("click", (event) => {
  const button = /** @type {HTMLElement} */ (event.target).closest("button.line-change");
  if (button instanceof HTMLElement) alone.change(Number(button.dataset.index), Number(button.dataset.delta));
});
byId("item-options-groups").addEventListener("change", (event) => {
  const input = event.target;
  if (input instanceof HTMLInputElement) alone.toggle(input.value);
});
byId("item-options-add").addEventListener("click", () => alone.confirm());
byId("item-options-cancel").addEventListener("click", () => alone.cancelPick());
byId("item-options").addEventListener("close", () => alone.cancelPick()); // Escape closes it too
byId("alone-pay").addEventListener("click", () => alone.pay());
byId("alone-back").addEventListener("click", () => alone.back());

/** @param {import("./session.js").Finish} how */
function finished(how) {
  stopReturn();
  window.clearTimeout(timers.typing);
  if (how === "cancelled") return goToAttract();
  startReturn();
}

// --- the return to the start from the thank-you and ended screens ------------------------------
// It warns `warningSeconds` ahead (on screen, with a sound, spoken in accessible mode), and a key or
// "Stay longer" starts it again.
function startReturn() {
  stopReturn();
  const seconds = scaled(store.get().screen === "ended" ? config.endedSeconds : config.thankYouSeconds);
  const warning = Math.min(seconds, scaled(config.warningSeconds));
  const deadline = Date.now() + seconds * 1000;
  timers.return = window.setTimeout(() => {
    chime();
    const tick = () => {
      const left = Math.round((deadline - Date.now()) / 1000);
      if (left > 0) return store.set({ returning: { open: true, left } });
      stopReturn();
      goToAttract();
    };
    tick();
    timers.returning = window.setInterval(tick, 1000);
  }, (seconds - warning) * 1000);
  document.body.dataset.returnTimer = "running";
}

function stopReturn() {
  window.clearTimeout(timers.return);
  window.clearInterval(timers.returning);
  store.set({ returning: { open: false, left: 0 } });
}

byId("returning-stay").addEventListener("click", startReturn);

// --- the thank-you screen's receipt (receipt.js) ---------------------------------------------
// While the customer types an email address the screen stays: the return to the attract screen
// waits, and starts again after sending, or after receiptTypingSeconds without a key pressed.
// <body data-return-timer> says which (the tests read it).
const receipt = createReceipt({ store, get, post, announce });

function holdThanks() {
  if (store.get().screen !== "thanks") return;
  stopReturn();
  window.clearTimeout(timers.typing);
  timers.typing = window.setTimeout(resumeThanks, scaled(config.receiptTypingSeconds) * 1000);
  document.body.dataset.returnTimer = "paused";
}

function resumeThanks() {
  window.clearTimeout(timers.typing);
  if (store.get().screen !== "thanks") return;
  startReturn();
}

byId("receipt-email").addEventListener("focus", holdThanks);
byId("receipt-email").addEventListener("input", holdThanks);
byId("receipt-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  holdThanks(); // a slow answer must not leave the screen under the customer's finger
  const sent = await receipt.send(byId("receipt-email", HTMLInputElement).value);
  if (sent) resumeThanks();
  else byId("receipt-email").focus();
});

// "Print receipt" (receipt-print.js): the screen waits while the kiosk asks, then goes on.
const receiptPrint = createReceiptPrint({ store, get, post, announce });
byId("receipt-print").addEventListener("click", async () => {
  holdThanks();
  await receiptPrint.print();
  resumeThanks();
});

// --- inactivity: nobody touching the screen ---------------------------------------------------
function touched() {
  window.clearTimeout(timers.idle);
  timers.idle = window.setTimeout(idle, scaled(config.inactivitySeconds) * 1000);
}
["pointerdown", "keydown", "input"].forEach((type) => document.addEventListener(type, touched, { capture: true }));

function idle() {
  const { screen } = store.get();
  if (screen === "attract") return store.set({ locale: "en-US", access: ACCESS_OFF });
  // They go back to the start by their own warned return (held only while a receipt is typed or printed).
  if ((screen === "thanks" || screen === "ended") && document.body.dataset.returnTimer !== "running") return startReturn();
  if ((screen === "waiting" || screen === "session") && stillThereApplies()) askStillThere();
}

// An agent took the session while the prompt was up: the agent decides from now on.
store.subscribe(({ stillThere }) => {
  if (stillThere.open && !stillThereApplies()) closeStillThere();
});

/** While waiting, or paying alone (nobody else would take the payment back), nobody touching ends it. */
function stillThereApplies() {
  const { status, alone: ordering } = store.get();
  return inactivityApplies(status && status.status) || Boolean(ordering.on && status && status.status === "payment");
}

/** Who ends the session when "Are you still there?" runs out: the kiosk (nobody touched it) or the
 * server (its pending timeout, server-timeout.js; the screen then says nobody could answer). */
let stillThereBy = "kiosk";

/** @param {number} seconds how long before the session ends: the prompt's own time, or what is
 * left of the server's @param {"kiosk" | "server"} by whose end it warns of. An open prompt keeps
 * the sooner end, and sounds once. */
function askStillThere(seconds = scaled(config.stillThereSeconds), by = "kiosk") {
  const { stillThere } = store.get();
  if (stillThere.open && stillThere.left <= seconds) return;
  stillThereBy = by;
  store.set({ stillThere: { open: true, left: seconds } });
  if (stillThere.open) return;
  chime();
  window.clearInterval(timers.stillThere);
  timers.stillThere = window.setInterval(() => {
    const left = store.get().stillThere.left - 1;
    store.set({ stillThere: { open: left > 0, left } });
    if (left > 0) return;
    window.clearInterval(timers.stillThere);
    if (stillThereBy === "kiosk") session.cancel("inactivity").catch((error) => logFailure("ending a session nobody was at", error));
  }, 1000);
}

function closeStillThere() {
  window.clearInterval(timers.stillThere);
  store.set(({ stillThere }) => ({ stillThere: { open: false, left: stillThere.left } }));
}

byId("still-there-yes").addEventListener("click", extend);
// Escape closes a modal dialog by itself: the store hears it, so the page and the state agree.
byId("still-there").addEventListener("close", closeStillThere);

// The server's own limit on a waiting session, warned as the inactivity prompt is (server-timeout.js).
const serverTimeout = createServerTimeout({ store, get, post, lead: () => scaled(config.warningSeconds), warn: (seconds) => askStillThere(seconds, "server") });

// --- network loss: a banner, and retries with back-off ----------------------------------------
let backoff = 0;
on("network", (reachable) => {
  const { offline } = store.get().network;
  if (reachable) {
    if (!offline) return;
    backoff = 0;
    window.clearTimeout(timers.retry);
    window.clearInterval(timers.countdown);
    store.set({ network: { offline: false, retryIn: null } });
    if (session.isOpen()) session.refresh();
    return;
  }
  if (!offline) scheduleRetry();
});

function scheduleRetry() {
  if (!device.paired) {
    store.set({ network: { offline: true, retryIn: null } }); // the next pairing attempt is the retry
    return;
  }
  backoff = nextBackoff(backoff);
  store.set({ network: { offline: true, retryIn: backoff } });
  window.clearInterval(timers.countdown);
  timers.countdown = window.setInterval(() => {
    store.set(({ network }) => ({ network: { ...network, retryIn: Math.max(0, (network.retryIn || 0) - 1) } }));
  }, 1000);
  window.clearTimeout(timers.retry);
  timers.retry = window.setTimeout(async () => {
    window.clearInterval(timers.countdown);
    store.set({ network: { offline: true, retryIn: 0 } });
    try {
      await post("/api/public/kiosks/heartbeat");
    } catch (error) {
      logFailure("reaching the service again", error);
      if (store.get().network.offline) scheduleRetry();
    }
  }, backoff * 1000);
}

// Full screen on the first touch (browsers allow it only from a gesture; a kiosk-mode browser
// is full screen already, and a refusal changes nothing).
document.addEventListener(
  "pointerdown",
  () => {
    if (config.fullscreen && document.fullscreenEnabled && !document.fullscreenElement) {
      document.documentElement.requestFullscreen().catch((error) => logFailure("going full screen", error));
    }
  },
  { once: true },
);

renderKiosk(store);
renderAccess(store);
renderThanks(store);
renderReceiptPrint(store);
renderChat(store, chat);
createChatSession(store, chat.onChat);
createShownItem(store, { announce });
const knownDining = { asks: () => device.asksDining, asked: (/** @type {boolean} */ ask) => (device.asksDining = ask) };
renderDining(store, createDining({ store, get, post, known: knownDining }).choose);
// --- accessible mode: the keypad and the bar at the bottom edge (access-actions.js) --------------
const warningUp = () => store.get().stillThere.open || store.get().returning.open;
/** The answer to every warning (a key, "Yes" or "Stay longer"): the time again, the server's too. */
function extend() {
  if (store.get().stillThere.open) closeStillThere();
  if (store.get().returning.open) startReturn();
  touched();
  serverTimeout.extend();
}
async function callPerson() {
  if (store.get().screen !== "attract") goToAttract({ keepAccess: true });
  await startSession();
}
const access = createAccessActions({ store, speech, session, alone, extend, callPerson });
createKeypad({ store, act: access.act, warning: warningUp, lines: createThanksLines({ store, speak: speech.speak }) });
byId("access-toggle").addEventListener("click", () => access.turn(!store.get().access.on));
byId("text-toggle").addEventListener("click", () => access.act("large_text", null));
byId("contrast-toggle").addEventListener("click", () => access.act("contrast", null));
touched();
boot();
