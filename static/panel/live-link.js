// The panel's one way to reach the Pusher-protocol server: a pusher-js client on this host, its
// private and presence channels signed with the session cookie and CSRF token by the one channel
// authoriser of every app (static/common/channel-auth.js). A module, so live pages (dashboard
// kiosks, queue) load as modules after it and call window.panelLive.connect(config) with the
// server-rendered config.
import { sessionAuthorization } from "../common/channel-auth.js";

/** @param {PanelLiveConfig} config */
function connect(config) {
  // The page loads pusher-js before this module; without it the live pages say so (they catch).
  if (!window.Pusher) throw new Error("the real-time client did not load");
  const csrfHeaders = () => ({ "X-CSRFToken": config.csrfToken });
  return new window.Pusher(config.key, {
    cluster: "local", // required by pusher-js; wsHost below decides where it connects
    wsHost: window.location.hostname,
    wsPort: Number(window.location.port) || 80,
    wssPort: Number(window.location.port) || 443,
    forceTLS: config.forceTLS,
    enabledTransports: ["ws", "wss"],
    disableStats: true,
    channelAuthorization: sessionAuthorization(config.authEndpoint, csrfHeaders, "signing the live link's subscription"),
  });
}

window.panelLive = { connect };
