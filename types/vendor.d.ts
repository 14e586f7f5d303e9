// The parts of the vendored classic-script libraries the browser apps use, for the type checker
// only (jsconfig.json); nothing ships. Each library's own typings are larger than the apps need
// and would come with an npm dependency; these name only what static/ calls.

// ---- pusher-js (static/panel/vendor, static/kiosk's vendored copy) ----

/** What the server sends on a channel: JSON the app reads as its own event shapes. */
type PusherEventData = any;

interface PusherChannel {
  bind(event: string, callback: (data: PusherEventData) => void): PusherChannel;
  unbind_all(): void;
  /** a client event; false when the socket cannot send it */
  trigger(event: string, data: unknown): boolean;
}

interface PusherConnection {
  state: string;
  bind(event: "state_change", callback: (states: { previous: string; current: string }) => void): void;
  bind(event: string, callback: (data: PusherEventData) => void): void;
}

interface PusherClient {
  connection: PusherConnection;
  subscribe(channelName: string): PusherChannel;
  unsubscribe(channelName: string): void;
  connect(): void;
  disconnect(): void;
}

interface PusherConstructor {
  new (key: string, options: object): PusherClient;
}

// ---- agora-rtc-sdk-ng (static/vendor) ----

interface AgoraTrack {
  enabled: boolean;
  play(element?: HTMLElement): void;
  setEnabled(enabled: boolean): Promise<void>;
  close(): void;
}

interface AgoraRemoteUser {
  uid: number | string;
  videoTrack?: AgoraTrack;
  audioTrack?: AgoraTrack;
}

interface AgoraClient {
  connectionState: string;
  on(event: "user-published", callback: (user: AgoraRemoteUser, mediaType: "audio" | "video") => void): void;
  on(event: string, callback: () => void): void;
  join(appId: string, channel: string, token: string, uid: number): Promise<unknown>;
  publish(tracks: AgoraTrack[]): Promise<void>;
  subscribe(user: AgoraRemoteUser, mediaType: "audio" | "video"): Promise<unknown>;
  renewToken(token: string): Promise<void>;
  leave(): Promise<void>;
}

interface AgoraRTCStatic {
  setLogLevel(level: number): void;
  disableLogUpload(): void;
  createClient(config: { mode: string; codec: string }): AgoraClient;
  /** [microphone, camera] */
  createMicrophoneAndCameraTracks(): Promise<AgoraTrack[]>;
}

// ---- Stripe.js (loaded from the processor) ----

interface StripeCardElement {
  mount(element: HTMLElement): void;
  destroy(): void;
}

interface StripeError {
  type: string;
  code?: string;
  decline_code?: string;
  message: string;
}

interface StripeClient {
  elements(): { create(kind: "card", options: object): StripeCardElement };
  confirmCardPayment(
    clientSecret: string,
    data: { payment_method: { card: StripeCardElement } },
  ): Promise<{ error?: StripeError; paymentIntent?: { id: string; status: string } }>;
}

type StripeConstructor = (publishableKey: string, options: { stripeAccount?: string }) => StripeClient;
