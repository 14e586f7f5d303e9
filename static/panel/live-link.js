// The panel's one way to reach the Pusher-protocol server: a pusher-js client on this host,
// authorising private and presence channels with the session cookie and CSRF token. Live pages
// (dashboard kiosks, queue) call window.panelLive.connect(config) with the server-rendered config.
(function () {
  "use strict";
  window.panelLive = {
    connect: function (config) {
      return new window.Pusher(config.key, {
        cluster: "local", // required by pusher-js; wsHost below decides where it connects
        wsHost: window.location.hostname,
        wsPort: Number(window.location.port) || 80,
        wssPort: Number(window.location.port) || 443,
        forceTLS: config.forceTLS,
        enabledTransports: ["ws", "wss"],
        disableStats: true,
        channelAuthorization: {
          endpoint: config.authEndpoint,
          transport: "ajax",
          headers: { "X-CSRFToken": config.csrfToken },
        },
      });
    },
  };
})();
