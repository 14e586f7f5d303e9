// The kiosk app: pairing once, then the attract screen, a customer's session, back to attract.
// Everything comes from the kiosk API (api.js, any origin) and the kiosk's real-time channel.
import { config, get, on, post } from "./api.js";
import { device } from "./device.js";
import { pair } from "./pairing.js";
import { KioskRealtime } from "./realtime.js";
import { KioskSession } from "./session.js";
import { $, $$, currentScreen, logFailure, showError, showScreen } from "./ui.js";

const state = { locale: "en-US", heartbeatTimer: null, idleTimer: null, returnTimer: null, offline: false };
const session = new KioskSession({ onFinished: finished });
const realtime = new KioskRealtime({
  onEvent: (name, data) => session.onEvent(name, data),
  onLive: (live, reconnected) => {
    document.body.dataset.realtime = live ? "live" : "polling";
    session.setLive(live, reconnected);
  },
});

// --- pairing and unpairing ------------------------------------------------------------------
async function boot() {
  if (!device.paired) return askToPair("");
  showProfile(device.profile);
  await startPaired();
}

async function askToPair(reason) {
  stopEverything();
  showScreen("pairing");
  const result = await pair(reason);
  device.pairedWith(result);
  showProfile(device.profile);
  await startPaired();
}

async function startPaired() {
  goToAttract();
  realtime.start();
  startHeartbeat();
}

function stopEverything() {
  realtime.stop();
  window.clearInterval(state.heartbeatTimer);
  window.clearTimeout(state.returnTimer);
  if (session.id) session.close();
  $("#still-there").open && $("#still-there").close();
}

let unpairing = false;
on("unpaired", async (error) => {
  if (unpairing || error.code !== "DEVICE_TOKEN_INVALID" || !device.paired) return;
  unpairing = true;
  device.forget();
  unpairing = false;
  await askToPair("This kiosk is no longer paired (the owner unpaired it). Enter a new pairing code to use it again.");
});

// --- the business's look, refreshed from the server ----------------------------------------
function showProfile(profile) {
  if (!profile) return;
  const { business, settings } = profile;
  $("#business-name").textContent = business.name;
  document.title = business.name;
  const logo = $("#business-logo");
  logo.hidden = !business.logo_url;
  if (business.logo_url && logo.getAttribute("src") !== business.logo_url) logo.src = business.logo_url;
  $("#attract-message").textContent = settings.attract_message;
  if (/^#[0-9a-f]{3,8}$|^[a-z]+$|^(rgb|hsl)a?\([\d\s.,%]+\)$/i.test(settings.primary_color || "")) {
    document.documentElement.style.setProperty("--brand", settings.primary_color);
  }
}
$("#business-logo").addEventListener("error", (event) => (event.target.hidden = true));

async function refreshProfile() {
  try {
    const profile = await get("/api/public/kiosks/me");
    device.remember(profile);
    showProfile(device.profile);
  } catch (error) {
    // 401 -> pairing, network -> banner; otherwise the last known look stays.
    logFailure("refreshing the business's look", error);
  }
}

// --- idle: attract screen, heartbeats, language ---------------------------------------------
function goToAttract() {
  window.clearTimeout(state.returnTimer);
  setLocale("en-US");
  showError($("#attract-error"), "");
  showScreen("attract");
  refreshProfile();
}

function startHeartbeat() {
  window.clearInterval(state.heartbeatTimer);
  state.heartbeatTimer = window.setInterval(() => {
    if (session.open) return; // its polls and calls count as heartbeats
    post("/api/public/kiosks/heartbeat").catch((error) => logFailure("the heartbeat", error));
    if (currentScreen() === "attract") refreshProfile();
  }, config.heartbeatSeconds * 1000);
}

function setLocale(locale) {
  state.locale = locale;
  $$("button.language").forEach((button) => {
    button.setAttribute("aria-pressed", String(button.dataset.locale === locale));
  });
  document.documentElement.lang = locale.split("-")[0];
}
$$("button.language").forEach((button) =>
  button.addEventListener("click", () => setLocale(button.dataset.locale)),
);

$("#start").addEventListener("click", async () => {
  const button = $("#start");
  button.disabled = true;
  showError($("#attract-error"), "");
  try {
    await session.start(state.locale);
  } catch (error) {
    if (error.status === 401) return;
    const words = {
      OWNER_SUSPENDED: "This kiosk cannot take orders at the moment. Please ask a member of staff.",
      RATE_LIMITED: "Please wait a moment and try again.",
      NETWORK: "We cannot reach our service right now. Please try again in a moment.",
    };
    showError($("#attract-error"), words[error.code] || `Sorry, we could not start: ${error.message}`);
  } finally {
    button.disabled = false;
  }
});

$("#cancel-waiting").addEventListener("click", () => session.cancel().catch((error) => logFailure("cancelling", error)));
$("#leave-session").addEventListener("click", () => session.cancel().catch((error) => logFailure("leaving", error)));
$("#thanks-done").addEventListener("click", goToAttract);
$("#ended-done").addEventListener("click", goToAttract);

function finished(how) {
  window.clearTimeout(state.returnTimer);
  if (how === "cancelled") return goToAttract();
  const seconds = how === "thanks" ? config.thankYouSeconds : config.endedSeconds;
  state.returnTimer = window.setTimeout(goToAttract, seconds * 1000);
}

// --- inactivity: nobody touching the screen ---------------------------------------------------
function touched() {
  window.clearTimeout(state.idleTimer);
  state.idleTimer = window.setTimeout(idle, config.inactivitySeconds * 1000);
}
["pointerdown", "keydown", "input"].forEach((type) => document.addEventListener(type, touched, { capture: true }));

function idle() {
  const screen = currentScreen();
  if (screen === "attract") return setLocale("en-US");
  if (screen === "thanks" || screen === "ended") return goToAttract();
  if ((screen === "waiting" || screen === "session") && session.status !== "payment") askStillThere();
}

function askStillThere() {
  const dialog = $("#still-there");
  let left = config.stillThereSeconds;
  const tick = () => ($("#still-there-count").textContent = `Your session ends in ${left} s.`);
  tick();
  dialog.showModal();
  const timer = window.setInterval(() => {
    left -= 1;
    tick();
    if (left > 0) return;
    window.clearInterval(timer);
    dialog.close();
    session.cancel().catch((error) => logFailure("ending an idle session", error));
  }, 1000);
  $("#still-there-yes").onclick = () => {
    window.clearInterval(timer);
    dialog.close();
    touched();
  };
}

// --- network loss: a banner, and retries with back-off ----------------------------------------
let backoff = 0;
on("network", (reachable) => {
  if (reachable) {
    if (!state.offline) return;
    state.offline = false;
    backoff = 0;
    window.clearTimeout(state.retryTimer);
    $("#network-banner").hidden = true;
    if (session.open) session.refresh();
    return;
  }
  if (state.offline) return;
  state.offline = true;
  scheduleRetry();
});

function scheduleRetry() {
  const banner = $("#network-banner");
  banner.hidden = false;
  if (!device.paired) {
    banner.textContent = "Connection lost. Check the network, then try again.";
    return; // the next pairing attempt is the retry
  }
  backoff = Math.min(backoff ? backoff * 2 : 2, 30);
  let left = backoff;
  const tick = () => (banner.textContent = `Connection lost. Trying again in ${left} s…`);
  tick();
  window.clearInterval(state.countdown);
  state.countdown = window.setInterval(() => {
    left = Math.max(0, left - 1);
    tick();
  }, 1000);
  window.clearTimeout(state.retryTimer);
  state.retryTimer = window.setTimeout(async () => {
    window.clearInterval(state.countdown);
    banner.textContent = "Connection lost. Trying again now…";
    try {
      await post("/api/public/kiosks/heartbeat");
    } catch (error) {
      if (state.offline) scheduleRetry();
    }
  }, backoff * 1000);
}

// Full screen on the first touch (browsers allow it only from a gesture; a kiosk-mode browser
// is full screen already, and a refusal changes nothing).
document.addEventListener(
  "pointerdown",
  () => {
    if (config.fullscreen && document.fullscreenEnabled && !document.fullscreenElement) {
      document.documentElement.requestFullscreen().catch((error) => logFailure("full screen", error));
    }
  },
  { once: true },
);

touched();
boot();
