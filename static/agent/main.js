// The agent dashboard: sign-in, status, the live queue, the session in hand, my day, my tokens.
// Everything comes from the public agent API and the agent's private real-time channel, goes
// into the one store (state.js) and is drawn by views.js.
import { interpolate, pgettext } from "../common/gettext.js";
import { newestAnswer } from "../common/http.js";
import { asFailure, logFailure } from "../common/report.js";
import { $$, announce, byId } from "../common/ui.js";
import { del, get, onUnauthenticated, post, settled } from "./api.js";
import { createReadAloud } from "./accessible.js";
import { createChat, renderChat } from "./chat.js";
import { createHeld } from "./held.js";
import { keyAction, outcomeOf, stepView } from "./held-state.js";
import { renderHeld } from "./held-views.js";
import { lapsedOnArrival, secondsLeft } from "./offer.js";
import { addCard, mergeSnapshot, removeCard, withAccessible, withLocale } from "./queue-state.js";
import { IncomingFeed } from "./realtime.js";
import { keepMuted, readMuted, Ring } from "./ring.js";
import { createPointing } from "./pointing.js";
import { createSessionActions } from "./session.js";
import { signIn } from "./signin.js";
import { createTokens } from "./tokens.js";
import { createAgentStore } from "./state.js";
import { createTransferActions } from "./transfer.js";
import { handedOverWords } from "./transfer-state.js";
import { renderAgent } from "./views.js";
import { acceptRefusal, goneReason, languageOf } from "./words.js";

const config = JSON.parse(byId("agent-config").textContent);
const store = createAgentStore({ muted: readMuted() });
const ring = new Ring();
// After a reload nobody signs in, so the first click or key press anywhere unlocks the ring.
["pointerdown", "keydown"].forEach((type) => document.addEventListener(type, () => ring.unlock(), { once: true, capture: true }));
const chat = createChat(store, { get, post, maxLength: config.chatMaxLength, openSeconds: config.chatOpenSeconds });
const session = createSessionActions(store, { announce, onEnded: sessionEnded, onChat: chat.onChat, onVideoState: chat.videoState });
const pointing = createPointing(store, { announce });
createReadAloud(store, { announce });
const transfer = createTransferActions(store, { announce });
const held = createHeld(store, { get, post, announce, maxLength: config.chatMaxLength, ask: session.ask });
/** @type {IncomingFeed | null} */
let feed = null;
let restored = false;
window.setInterval(tick, 1000);

// The waiting times and the offers' time left tick; an offer whose time ran out goes at once (the
// server withdraws it on its next routing tick, and may set the agent on break for it: told on the
// channel, or read by the feed's timed polls).
function tick() {
  const now = Date.now();
  store.set({ now });
  transfer.tick(now);
  const lapsed = store.get().queue.cards.filter((card) => secondsLeft(card.session, card.receivedAt, now) === 0);
  lapsed.forEach((card) => dropCard(card.session.id, goneReason("lapsed")));
}

const alertText = (/** @type {string} */ text) => store.set({ alert: text });

// --- signing in and out ---------------------------------------------------------------------
async function boot() {
  try {
    store.set({ user: await get("/api/user") });
  } catch (caught) {
    const error = asFailure(caught);
    if (error.status !== 401) alertText(interpolate(pgettext("agent", "The dashboard could not start: %(why)s"), { why: error.message }));
    return askToSignIn("");
  }
  return startApp();
}

/** @param {string} reason */
async function askToSignIn(reason) {
  const user = await signIn(store, reason);
  ring.unlock();
  const before = store.get().user;
  if (before && user.id !== before.id) return window.location.reload(); // someone else now
  store.set({ user });
  return before ? resume() : startApp();
}

// A 401 in the middle of work: sign in again over the screen, then carry on where we were.
let reauthenticating = false;
onUnauthenticated(async () => {
  if (reauthenticating || !store.get().user) return;
  reauthenticating = true;
  store.set({ locked: true });
  if (feed) feed.stop();
  await askToSignIn(pgettext("agent", "Your session has ended. Sign in again to carry on: what is on screen is kept."));
  reauthenticating = false;
});

async function resume() {
  store.set({ locked: false, started: true, alert: "" });
  startFeed();
  if (store.get().session) await session.sync(); // the change that met the 401, sent now
  await restoreSession();
}

async function startApp() {
  store.set({ started: true });
  startFeed();
  await restoreSession();
  const user = store.get().user;
  if (user) await held.restoreOutcomes(user.id); // the outcome cards not dismissed before a reload
  restored = true; // what the channel misses while down is read from now on (before: this read has it)
  byId("main").focus();
}

/** A new card: it rings (unless muted) and is announced. @param {import("./queue-state.js").Incoming} incoming */
function arrived(incoming) {
  if (!store.get().muted) ring.play();
  const where = { kiosk: incoming.kiosk.name, business: incoming.business.name };
  announce(
    incoming.transfer_from
      ? interpolate(pgettext("agent", "Transfer from %(agent)s: %(kiosk)s, %(business)s."), { agent: incoming.transfer_from.name, ...where })
      : interpolate(pgettext("agent", "New session from %(kiosk)s, %(business)s."), where),
  );
}

function startFeed() {
  const user = store.get().user;
  if (!user) throw new Error("the queue is read once the agent is signed in");
  if (feed) feed.stop();
  feed = new IncomingFeed({
    config,
    agentId: user.id,
    onSnapshot: (sessions, askedAt) => {
      const offered = sessions.filter((incoming) => !lapsedOnArrival(incoming));
      const { queue, added } = mergeSnapshot(store.get().queue, offered, askedAt, Date.now());
      store.set({ queue });
      added.forEach(arrived);
    },
    onIncoming: (incoming) => {
      if (lapsedOnArrival(incoming)) return;
      const before = store.get().queue;
      store.set({ queue: addCard(before, incoming, Date.now()) });
      if (store.get().queue !== before) arrived(incoming);
    },
    onGone: (id, why) => dropCard(id, goneReason(why)),
    onState: (live) => {
      const was = store.get().live;
      store.set({ live });
      if (live === "connected" && was !== "connected") catchUp(); // what the channel said while it was down
    },
    onPointed: (data) => pointing.pointed(data),
    onLocale: localeChanged,
    onOfferAccessible: ({ session_id: id, accessible_mode: on }) => store.set(({ queue }) => ({ queue: withAccessible(queue, id, Boolean(on)) })),
    onTransferred: transferred,
    onTransferLapsed: (message) => transfer.lapsed(message),
    onSessionUpdated: (read) => {
      if (store.get().session?.id === read.session.id) session.apply(read);
      else held.apply(read);
      if (outcomeOf(read)) refreshUser(); // a seat freed (the server's status moves without its own event): the status line's seats
    },
    onChatMessage: (message) => held.heard(message),
    onPoll: () => Promise.all([refreshUser(), catchUp()]),
    onStatus: ({ status, status_reason, status_message }) => {
      const user = store.get().user;
      if (user) store.set({ user: { ...user, agent_status: status, status_reason, status_message } });
      if (status_message) announce(status_message);
      refreshUser(); // its seats (capacity, sessions held), read with it
    },
  });
  feed.start();
}

/** The session in hand and the held cards read again: while the agent's channel is down (the feed's timed polls), and once it is back. */
const catchUp = () => (restored ? Promise.all([session.refresh(), held.refresh()]) : Promise.resolve());

/**
 * CustomerLocaleChanged: the customer chose another language at the kiosk, while waiting (a card)
 * or with this agent (the session in hand). @param {{session_id: string, customer_locale: string}} message
 */
function localeChanged({ session_id: id, customer_locale: locale }) {
  store.set(({ queue }) => ({ queue: withLocale(queue, id, locale) }));
  const mine = store.get().session;
  if (!mine || mine.id !== id || mine.customer_locale === locale) return;
  store.set({ session: { ...mine, customer_locale: locale } });
  announce(interpolate(pgettext("agent", "The customer now reads %(language)s."), { language: languageOf(locale) }));
}

/**
 * SessionTransferred: the sender's session went to a colleague; the receiver (another tab, or
 * before its accept's answer) reads its new session. @param {import("./transfer-state.js").TransferredMessage} message
 */
function transferred(message) {
  const mine = store.get().session;
  const me = store.get().user;
  if (message.agent && me && message.agent.id === String(me.id)) {
    if (!mine) restoreSession();
    return;
  }
  if (mine && mine.id === message.session_id) session.handedOver(handedOverWords(message, mine.kiosk.name));
}

/** @param {string} id @param {string} [reason] said when given */
function dropCard(id, reason) {
  const card = store.get().queue.cards.find((c) => c.session.id === id);
  if (!card) return;
  store.set(({ queue }) => ({ queue: removeCard(queue, id, Date.now()) }));
  if (reason) announce(`${card.session.kiosk.name}: ${reason}.`);
}

byId("signout").addEventListener("click", async () => {
  if (feed) feed.stop();
  session.pause();
  await settled();
  try {
    await post("/api/logout");
  } catch (caught) {
    const error = asFailure(caught);
    if (error.status !== 401) logFailure("signing out", error); // a 401: signed out already
  }
  window.location.reload();
});

// --- status ---------------------------------------------------------------------------------
// Reads overlap (the feed's polls, a status change): an older answer would put a status back.
const userReads = newestAnswer();
async function refreshUser() {
  const newest = userReads.ask();
  try {
    const user = await get("/api/user");
    if (!newest()) return;
    store.set({ user });
  } catch (caught) {
    const error = asFailure(caught);
    if (error.status !== 401) logFailure("reading who is signed in", error); // a 401 goes to sign-in
  }
}

/** @param {string} status @param {string} label */
async function setStatus(status, label) {
  try {
    await post("/api/agent/status", { status });
    announce(interpolate(pgettext("agent", "Status: %(status)s."), { status: label }));
  } catch (caught) {
    const error = asFailure(caught);
    alertText(interpolate(pgettext("agent", "The status was not changed: %(why)s"), { why: error.message }));
  }
  await refreshUser(); // show what the server says
}

byId("agent-status").addEventListener("change", (event) => {
  const select = /** @type {HTMLSelectElement} */ (event.target);
  return setStatus(select.value, select.selectedOptions[0].textContent);
});

const backToAvailable = () => setStatus("available", pgettext("agent", "Available"));

byId("mute").addEventListener("click", () => {
  const muted = !store.get().muted;
  keepMuted(muted);
  store.set({ muted });
});

// --- sessions -------------------------------------------------------------------------------
/** @param {import("./queue-state.js").Incoming} incoming a queue card's session */
async function accept(incoming) {
  alertText("");
  try {
    await post(`/api/sessions/${incoming.id}/accept`);
  } catch (caught) {
    const error = asFailure(caught);
    const words = acceptRefusal(error, incoming.kiosk.name);
    if (["SESSION_ALREADY_ACCEPTED", "SESSION_ALREADY_ENDED", "SESSION_NOT_FOUND"].includes(error.code || "")) dropCard(incoming.id);
    if (words) alertText(words);
    if (["AGENT_HAS_ACTIVE_SESSION", "AGENT_AT_CAPACITY", "AGENT_IN_CONVERSATION"].includes(error.code || "")) {
      // Accepted elsewhere (another tab or device): show that session and the status it set.
      await restoreSession();
      await refreshUser();
    }
    return;
  }
  dropCard(incoming.id);
  await restoreSession();
  await refreshUser();
}

// What the agent holds, from the server: the session in hand (the video conversation, else the
// oldest held) on the main view, every other one a card. The session in hand stays as it is when
// the server still names it (an offer accepted mid-conversation never takes the main view).
async function restoreSession() {
  try {
    const current = await get("/api/sessions/current");
    const mine = store.get().session;
    if (current.session && mine && mine.id === current.session.id) return held.load(current.held);
    if (current.session) {
      if (mine) session.close(); // another comes to hand (a video customer accepted while this one pays)
      const opening = showSession(current.session, current.order, current.payment);
      held.load(current.held);
      return opening;
    }
    held.load([]);
  } catch (caught) {
    const error = asFailure(caught);
    // A 401 goes to sign-in; otherwise what is on screen stays until the next try.
    if (error.status !== 401) logFailure("reading the session in hand", error);
    return undefined;
  }
  if (store.get().session) session.close();
  return showPanel(store.get().tab);
}

/** @param {any} current @param {any} order @param {any} payment */
function showSession(current, order, payment) {
  store.set({ result: "" });
  const opening = session.open(current, order, payment); // marks the session in hand at once
  transfer.load();
  showPanel("queue");
  announce(interpolate(pgettext("agent", "Session with %(kiosk)s started."), { kiosk: current.kiosk.name }));
  return opening;
}

/** @param {string} text */
async function sessionEnded(text) {
  store.set({ alert: "", result: text }); // what was said about that session or the queue before it no longer holds
  announce(text);
  showPanel("queue");
  await restoreSession(); // another customer held comes to the main view
  store.set({ result: text });
  await refreshUser();
  if (feed) feed.pollOnce();
}

// --- tabs: the queue (or the session), my sessions today, my tokens -------------------------
/** @param {import("./state.js").AgentState["tab"]} tab */
function showPanel(tab) {
  store.set({ tab });
  if (tab === "history") loadHistory();
  if (tab === "tokens") loadTokens();
}

$$(".tab").forEach((button) =>
  button.addEventListener("click", () => showPanel(/** @type {any} */ (button.dataset.tab))),
);

async function loadHistory() {
  try {
    const [mine, today] = await Promise.all([get("/api/sessions/mine"), get("/api/reports/me/today")]);
    store.set({ history: mine.data, today });
  } catch (caught) {
    const error = asFailure(caught);
    if (error.status !== 401) alertText(interpolate(pgettext("agent", "Your sessions could not be loaded: %(why)s"), { why: error.message }));
  }
}

async function loadTokens() {
  try {
    store.set({ tokens: (await get("/api/tokens")).data });
  } catch (caught) {
    const error = asFailure(caught);
    if (error.status !== 401) alertText(interpolate(pgettext("agent", "Your tokens could not be loaded: %(why)s"), { why: error.message }));
  }
}

/** @param {import("./state.js").Token} token */
async function revoke(token) {
  try {
    await del(`/api/tokens/${token.id}`);
    announce(interpolate(pgettext("agent", "Token %(name)s revoked."), { name: token.name }));
  } catch (caught) {
    const error = asFailure(caught);
    if (error.status !== 401 && error.status !== 404) alertText(interpolate(pgettext("agent", "The token was not revoked: %(why)s"), { why: error.message }));
  }
  loadTokens();
}

// The keys between held sessions and for an offer (held-state.js KEYS, said on screen): they work
// wherever the focus is, and accepting an offer leaves it there (the conversation keeps it).
document.addEventListener("keydown", (event) => {
  const action = keyAction(event);
  if (!action || store.get().locked || !store.get().started) return;
  event.preventDefault();
  if (action === "accept") {
    const [offer] = store.get().queue.cards;
    if (offer) accept(offer.session);
  } else if (action === "conversation") showHeld(null);
  else showHeld(stepView(store.get().held, store.get().viewed, action === "next" ? 1 : -1));
});

/**
 * A held card on the main view (null: the session in hand), the focus on its title once drawn (a
 * view switched by the agent; an accept never moves the focus). @param {string | null} id
 */
function showHeld(id) {
  held.view(id);
  const { viewed, session: inHand } = store.get();
  if (viewed) byId("held-view-title").focus();
  else if (inHand) byId("session-title").focus();
}

createTokens(store, { announce, reload: loadTokens });
renderChat(store, chat);
renderHeld(store, { view: showHeld, reply: held.reply, type: held.type, dismiss: held.dismiss, choose: held.choose, change: held.change });
renderAgent(store, { accept, choose: session.choose, show: pointing.show, change: session.change, revoke, backToAvailable }, announce);
boot();
