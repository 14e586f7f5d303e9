// The kiosk's video: the shared call (static/common/video-call.js) with the kiosk API's token
// endpoints; its states go into the store in words (words.js). The order carries on whatever
// the video does.
import { VideoCall } from "../common/video-call.js";
import { get, post } from "./api.js";
import { AGORA_SDK, staticUrl } from "./vendor.js";
import { videoWords } from "./words.js";

/**
 * @param {import("../common/store.js").Store<import("./state.js").KioskState>} store
 * @param {{pane: HTMLElement, localVideo: HTMLElement, remoteVideo: HTMLElement}} elements
 */
export function createVideo(store, { pane, localVideo, remoteVideo }) {
  return new VideoCall({
    pane,
    localVideo,
    remoteVideo,
    sdkUrl: staticUrl(AGORA_SDK),
    get,
    post,
    tokenUrl: (channel) => `/api/public/video/token?channel=${encodeURIComponent(channel)}&role=publisher`,
    refreshUrl: "/api/public/video/token/refresh",
    onState: (state, detail) => store.set({ video: { idle: state === "idle", state, words: videoWords(state, detail, store.get().locale) } }),
  });
}
