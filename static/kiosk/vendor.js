// The browser libraries the kiosk loads at run time from the API server's static files (the
// copies the project vendors, never a CDN), so a kiosk hosted on another origin needs nothing
// besides its own folder. Same files as apps/agent_app/vendor.py (a test keeps them in step).
import { config } from "./api.js";

export const PUSHER_JS = "panel/vendor/pusher-8.6.0.min.js";
export const AGORA_SDK = "vendor/agora-rtc-sdk-ng/AgoraRTC_N-4.24.8.js";

const loading = {};

export function staticUrl(path) {
  const base = (config.staticBase || config.apiBase + "/static/").replace(/\/?$/, "/");
  return base + path;
}

// One <script> per URL; resolves with window[globalName].
export function loadScript(src, globalName) {
  if (window[globalName]) return Promise.resolve(window[globalName]);
  if (!loading[src]) {
    loading[src] = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = () => (window[globalName] ? resolve(window[globalName]) : reject(new Error(`${src} did not load`)));
      script.onerror = () => reject(new Error(`${src} could not be loaded`));
      document.head.append(script);
    });
    loading[src].catch(() => delete loading[src]);
  }
  return loading[src];
}
