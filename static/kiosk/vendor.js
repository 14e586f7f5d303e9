// What the kiosk loads from the API server's static files, so a kiosk hosted on another origin
// needs nothing besides its shell (main.js loads this app's code from there: see
// docs/kiosk-and-agent.md): the browser libraries the project vendors (never a CDN; same files
// as apps/agent_app/vendor.py, a test keeps them in step). WhiteNoise sends static files with
// Access-Control-Allow-Origin: *.
import { loadScript as loadClassicScript } from "../common/scripts.js";
import { staticBase } from "./settings.js";

export const PUSHER_JS = "panel/vendor/pusher-8.6.0.min.js";
export const AGORA_SDK = "vendor/agora-rtc-sdk-ng/AgoraRTC_N-4.24.8.js";

/** The address of a file under the API server's /static/. @param {string} path */
export const staticUrl = (path) => staticBase() + path;

/**
 * One <script> per URL (static/common/scripts.js); resolves with window[globalName].
 * @template {"Pusher" | "AgoraRTC" | "Stripe"} K
 * @param {string} src @param {K} globalName
 */
export const loadScript = (src, globalName) => loadClassicScript(src, globalName);
