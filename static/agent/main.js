// The agent dashboard: sign-in, status, the live queue, the session view, my day, my tokens.
// Everything comes from the public agent API and the agent's private real-time channel.
import { del, get, onUnauthenticated, post, settled } from "./api.js";
import { Queue } from "./queue.js";
import { IncomingFeed } from "./realtime.js";
import { SessionView } from "./session.js";
import { signIn } from "./signin.js";
import { logFailure } from "../common/report.js";
import { $, $$, announce, clock, el, money, showError } from "./ui.js";

const config = JSON.parse($("#agent-config").textContent);
const state = { user: null, feed: null, tab: "queue" };

const queue = new Queue({ onAccept: accept });
// After a reload nobody signs in, so the first click or key press anywhere unlocks the ring.
["pointerdown", "keydown"].forEach((type) =>
  document.addEventListener(type, () => queue.unlockSound(), { once: true, capture: true }),
);
const sessionView = new SessionView({ onEnded: sessionEnded });

function alertText(text) {
  showError($("#alert"), text);
}

// --- signing in and out ---------------------------------------------------------------------
async function boot() {
  try {
    state.user = await get("/api/user");
  } catch (error) {
    if (error.status !== 401) alertText(`The dashboard could not start: ${error.message}`);
    return askToSignIn("");
  }
  return startApp();
}

async function askToSignIn(reason) {
  const user = await signIn(reason);
  queue.unlockSound();
  if (state.user && user.id !== state.user.id) return window.location.reload(); // someone else now
  const resuming = state.user !== null;
  state.user = user;
  return resuming ? resume() : startApp();
}

// A 401 in the middle of work: sign in again over the screen, then carry on where we were.
let reauthenticating = false;
onUnauthenticated(async () => {
  if (reauthenticating || !state.user) return;
  reauthenticating = true;
  $("#app").inert = true;
  if (state.feed) state.feed.stop();
  await askToSignIn("Your session has ended. Sign in again to carry on: what is on screen is kept.");
  reauthenticating = false;
});

async function resume() {
  $("#app").inert = false;
  $("#app").hidden = false;
  alertText("");
  showUser();
  startFeed();
  if (sessionView.active) await sessionView.sync(); // the change that met the 401, sent now
  await restoreSession();
}

async function startApp() {
  $("#app").hidden = false;
  showUser();
  startFeed();
  await restoreSession();
  $("#main").focus();
}

function startFeed() {
  if (state.feed) state.feed.stop();
  state.feed = new IncomingFeed({
    config,
    agentId: state.user.id,
    onSnapshot: (sessions, askedAt) => queue.replace(sessions, askedAt),
    onIncoming: (session) => queue.add(session),
    onGone: (id, why) => queue.remove(id, why === "claimed" ? "taken by another agent" : "withdrawn by the kiosk"),
    onState: (live) => {
      const label = $("#live-state");
      label.dataset.state = live;
      label.textContent = live === "connected" ? "Live" : "Live updates unavailable: checking every 2 s";
    },
  });
  state.feed.start();
}

$("#signout").addEventListener("click", async () => {
  if (state.feed) state.feed.stop();
  sessionView.pause();
  await settled();
  try {
    await post("/api/logout");
  } catch (error) {
    if (error.status !== 401) logFailure("signing out", error); // a 401: signed out already
  }
  window.location.reload();
});

// --- status ---------------------------------------------------------------------------------
function showUser() {
  $("#agent-name").textContent = state.user.name || state.user.email;
  $("#agent-status").value = state.user.agent_status;
  $("#agent-status").dataset.status = state.user.agent_status;
}

async function refreshUser() {
  try {
    state.user = await get("/api/user");
    showUser();
  } catch (error) {
    if (error.status !== 401) logFailure("reading who is signed in", error); // a 401 goes to sign-in
  }
}

$("#agent-status").addEventListener("change", async (event) => {
  try {
    await post("/api/agent/status", { status: event.target.value });
    announce(`Status: ${event.target.selectedOptions[0].textContent}.`);
  } catch (error) {
    alertText(`The status was not changed: ${error.message}`);
  }
  await refreshUser(); // show what the server says
});

$("#mute").addEventListener("click", (event) => {
  queue.setMuted(!queue.muted);
  event.target.setAttribute("aria-pressed", queue.muted ? "true" : "false");
  event.target.textContent = queue.muted ? "Unmute ring" : "Mute ring";
});
$("#mute").setAttribute("aria-pressed", queue.muted ? "true" : "false");
$("#mute").textContent = queue.muted ? "Unmute ring" : "Mute ring";

// --- sessions -------------------------------------------------------------------------------
async function accept(session) {
  alertText("");
  try {
    await post(`/api/sessions/${session.id}/accept`);
  } catch (error) {
    if (error.code === "SESSION_ALREADY_ACCEPTED") {
      queue.remove(session.id);
      alertText(`${session.kiosk.name}: taken by another agent.`);
    } else if (error.code === "AGENT_HAS_ACTIVE_SESSION") {
      // Accepted elsewhere (another tab or device): show that session and the status it set.
      alertText("You already have a session in progress: finish it before accepting another.");
      await restoreSession();
      await refreshUser();
    } else if (error.code === "SESSION_ALREADY_ENDED" || error.code === "SESSION_NOT_FOUND") {
      queue.remove(session.id);
      alertText(`${session.kiosk.name}: the customer has left.`);
    } else if (error.status !== 401) {
      alertText(`The session could not be accepted: ${error.message}`);
    }
    return;
  }
  queue.remove(session.id);
  await restoreSession();
  await refreshUser();
}

async function restoreSession() {
  try {
    const current = await get("/api/sessions/current");
    if (current.session) return showSession(current.session, current.order);
  } catch (error) {
    return;
  }
  if (sessionView.active) sessionView.close();
  showPanel(state.tab);
}

function showSession(session, order) {
  $("#session-result").hidden = true;
  const opening = sessionView.open(session, order); // marks the view active at once
  showPanel("queue");
  announce(`Session with ${session.kiosk.name} started.`);
  return opening;
}

async function sessionEnded(text) {
  alertText(""); // what was said about that session or the queue before it no longer holds
  const result = $("#session-result");
  result.textContent = text;
  result.hidden = false;
  announce(text);
  showPanel("queue");
  await refreshUser();
  if (state.feed) state.feed.pollOnce();
}

// --- tabs: the queue (or the session), my sessions today, my tokens -------------------------
function showPanel(tab) {
  state.tab = tab;
  $$(".tab").forEach((button) => {
    if (button.dataset.tab === tab) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  });
  $("#queue").hidden = tab !== "queue" || sessionView.active;
  $("#session").hidden = tab !== "queue" || !sessionView.active;
  $("#history").hidden = tab !== "history";
  $("#tokens").hidden = tab !== "tokens";
  if (tab === "history") loadHistory();
  if (tab === "tokens") loadTokens();
}

$$(".tab").forEach((button) => button.addEventListener("click", () => showPanel(button.dataset.tab)));

async function loadHistory() {
  try {
    const body = await get("/api/sessions/mine");
    const rows = body.data.map((s) =>
      el(
        "tr",
        { "data-session-id": s.id },
        el("td", { text: clock(s.accepted_at) }),
        el("td", { text: s.kiosk.name }),
        el("td", { text: s.ended_at ? s.status : "in progress" }),
        el("td", { text: s.total_cents === null ? "–" : money(s.total_cents, s.currency) }),
      ),
    );
    $("#history-rows").replaceChildren(...rows);
    $("#history-empty").hidden = rows.length > 0;
  } catch (error) {
    if (error.status !== 401) alertText(`Your sessions could not be loaded: ${error.message}`);
  }
}

async function loadTokens() {
  try {
    const body = await get("/api/tokens");
    const items = body.data.map((token) =>
      el(
        "li",
        { "data-token-id": token.id },
        el("span", { text: `${token.name} · created ${new Date(token.created_at).toLocaleDateString()}` }),
        el("span", { class: "note", text: token.last_used_at ? ` · last used ${clock(token.last_used_at)}` : " · never used" }),
        el("button", { type: "button", text: "Revoke", "aria-label": `Revoke ${token.name}`, onclick: () => revoke(token) }),
      ),
    );
    $("#token-list").replaceChildren(...items);
    $("#tokens-empty").hidden = items.length > 0;
  } catch (error) {
    if (error.status !== 401) alertText(`Your tokens could not be loaded: ${error.message}`);
  }
}

async function revoke(token) {
  try {
    await del(`/api/tokens/${token.id}`);
    announce(`Token ${token.name} revoked.`);
  } catch (error) {
    if (error.status !== 401 && error.status !== 404) alertText(`The token was not revoked: ${error.message}`);
  }
  loadTokens();
}

boot();
