// What the kiosk loads at run time from the API server's static files, so a kiosk hosted on
// another origin needs nothing besides its own folder: the browser libraries (the copies the
// project vendors, never a CDN; same files as apps/agent_app/vendor.py, a test keeps them in
// step) and the modules it shares with the agent dashboard (static/common/, one definition for
// both apps; WhiteNoise sends static files with Access-Control-Allow-Origin: *).
import { config } from "./settings.js";

export const PUSHER_JS = "panel/vendor/pusher-8.6.0.min.js";
export const AGORA_SDK = "vendor/agora-rtc-sdk-ng/AgoraRTC_N-4.24.8.js";
const RESTART_SECONDS = 10;

export function staticUrl(path) {
  const base = (config.staticBase || config.apiBase + "/static/").replace(/\/?$/, "/");
  return new URL(base + path, document.baseURI).href;
}

let restarting = false;

// A shared module (static/common/<name>). Without it the app cannot start: the loading screen
// says the service cannot be reached and the page starts over a little later.
export function shared(name) {
  return import(staticUrl(`common/${name}`)).catch(() => {
    if (!restarting) {
      restarting = true;
      const note = document.querySelector("#screen-loading .note");
      if (note) note.textContent = "The service cannot be reached. Trying again in a moment…";
      window.setTimeout(() => window.location.reload(), RESTART_SECONDS * 1000);
    }
    return new Promise(() => {}); // never settles: the reload starts the app over
  });
}

// One <script> per URL (static/common/scripts.js); resolves with window[globalName].
export async function loadScript(src, globalName) {
  const scripts = await shared("scripts.js");
  return scripts.loadScript(src, globalName);
}
