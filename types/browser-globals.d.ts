// Globals the browser apps read, for the type checker only (jsconfig.json); nothing ships.

/** The kiosk app's configuration (static/kiosk/config.js, docs/kiosk-and-agent.md). */
interface KioskConfig {
  apiBase?: string;
  staticBase?: string;
  realtimeKey?: string;
  wsHost?: string;
  wsPort?: number | string;
  forceTLS?: boolean | string;
  processorPublishableKey?: string;
  [setting: string]: unknown;
}

interface Window {
  KIOSK_CONFIG?: KioskConfig;
  /** pusher-js (vendored classic script) */
  Pusher?: any;
  /** agora-rtc-sdk-ng (vendored classic script) */
  AgoraRTC?: any;
  /** Stripe.js, loaded from the processor */
  Stripe?: any;
  webkitAudioContext?: typeof AudioContext;
  /** the owner panel's live link (static/panel/live-link.js) */
  panelLive?: { connect: (config: any) => any };
}
