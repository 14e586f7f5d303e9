// The kiosk app's configuration. Served by the project at /kiosk/, the defaults are right: the
// API is this page's own origin. Hosting the app elsewhere, replace this file (or pass
// ?api=https://api.example.com in the address); docs/kiosk-and-agent.md lists every setting.
window.KIOSK_CONFIG = {
  apiBase: "", // e.g. "https://orders.example.com"; empty: the page's origin
  // realtimeKey, wsHost, wsPort, forceTLS: learnt from the API when left out
  // processorPublishableKey: "pk_live_…", // live payments, when the API does not say it
  // heartbeatSeconds: 30, pollSeconds: 2, inactivitySeconds: 90, thankYouSeconds: 30, warningSeconds: 20,
};
