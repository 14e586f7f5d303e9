// The kiosk's video: the shared call (static/common/video-call.js) with the kiosk API's token
// endpoints and the call channel (signed by the kiosk auth endpoint with the device headers); its
// states go into the store (views.js says them in words, words.js, in the language of the moment). The order carries on whatever the video does.
// Chat messages on the call channel go to `onChat` (chat.js).
import { deviceAuthorization } from "../common/channel-auth.js";
import { VideoCall } from "../common/video-call.js";
import { config, get, post, url } from "./api.js";
import { device } from "./device.js";
import { AGORA_SDK, loadScript, PUSHER_JS, staticUrl } from "./vendor.js";

/** pusher-js and its options for the call channel, as the kiosk's own link (realtime.js) connects. */
export async function connect() {
  const Pusher = await loadScript(staticUrl(PUSHER_JS), "Pusher");
  const key = config.realtimeKey || (await get("/api/public/broadcasting/channels")).app_key;
  const api = new URL(config.apiBase);
  const tls = config.forceTLS !== undefined ? String(config.forceTLS) === "true" : api.protocol === "https:";
  const port = Number(config.wsPort) || Number(api.port) || undefined;
  const options = {
    cluster: "local", // pusher-js insists on one; wsHost decides where it connects
    wsHost: config.wsHost || api.hostname,
    wsPort: port || 80,
    wssPort: port || 443,
    forceTLS: tls,
    enabledTransports: ["ws", "wss"],
    disableStats: true,
    channelAuthorization: deviceAuthorization(url("/api/public/broadcasting/auth"), () => device.headers(), "signing the call channel"),
  };
  return { Pusher, key, options };
}

/**
 * @param {import("../common/store.js").Store<import("./state.js").KioskState>} store
 * @param {{pane: HTMLElement, localVideo: HTMLElement, remoteVideo: HTMLElement}} elements
 * @param {(event: string, data: any) => void} [onChat]
 */
export function createVideo(store, { pane, localVideo, remoteVideo }, onChat) {
  return new VideoCall({
    pane,
    localVideo,
    remoteVideo,
    sdkUrl: staticUrl(AGORA_SDK),
    get,
    post,
    tokenUrl: (channel) => `/api/public/video/token?channel=${encodeURIComponent(channel)}&role=publisher`,
    refreshUrl: "/api/public/video/token/refresh",
    connect,
    onChat,
    onState: (state, detail) => store.set({ video: { idle: state === "idle", state, detail: detail || {} } }),
  });
}
