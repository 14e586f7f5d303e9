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
  /** pusher-js (vendored classic script; types/vendor.d.ts) */
  Pusher?: PusherConstructor;
  /** agora-rtc-sdk-ng (vendored classic script) */
  AgoraRTC?: AgoraRTCStatic;
  /** Stripe.js, loaded from the processor */
  Stripe?: StripeConstructor;
  webkitAudioContext?: typeof AudioContext;
  /** the owner panel's live link (static/panel/live-link.js) */
  panelLive?: { connect: (config: PanelLiveConfig) => PusherClient };
}

/** The agent dashboard's configuration (the agent-config element; apps/agent_app/views.py). */
interface AgentConfig {
  realtimeKey: string;
  authEndpoint: string;
  forceTLS: boolean;
  pollSeconds: number;
  reconnectSeconds?: number;
  chatMaxLength: number;
  chatOpenSeconds: number;
  wsHost?: string;
  wsPort?: number;
}

/** The panel's live pages' server-rendered config (the live-status-config element). */
interface PanelLiveConfig {
  key: string;
  authEndpoint: string;
  forceTLS: boolean;
  csrfToken: string;
  channel: string;
  [setting: string]: unknown;
}
