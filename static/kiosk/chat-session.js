// A session the customer started to write instead of talking on camera (`medium: "chat"`, the
// attract screen's second button): no call and no camera, ever. <body data-medium> says the
// session's medium (kiosk.css hides the video and shows the chat as the main view); while an agent
// serves it, the kiosk joins the session's call channel for its ChatMessage alone (the video's
// call would have joined it), and chat.js reads and shows the conversation as for a call.
import { CallSignal } from "../common/call-signal.js";
import { logFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { servedSession, writesOnly } from "./chat-state.js";
import { connect } from "./video.js";

/** @typedef {import("./state.js").KioskState} KioskState */

/**
 * @param {import("../common/store.js").Store<KioskState>} store
 * @param {(event: string, data: any) => void} onChat chat.js's: ChatMessage, and "joined" on each (re)join
 */
export function createChatSession(store, onChat) {
  /** @type {CallSignal | null} */
  let signal = null;
  let wanted = /** @type {string | null} */ (null);

  watch(store, (s) => (writesOnly(s) ? "chat" : s.sessionId ? "video" : ""), (medium) => {
    if (medium) document.body.dataset.medium = medium;
    else delete document.body.dataset.medium;
  });

  /** @param {string | null} sessionId the chat session served now */
  async function follow(sessionId) {
    wanted = sessionId;
    if (signal) signal.close();
    signal = null;
    if (!sessionId) return;
    let setup;
    try {
      setup = await connect();
    } catch (error) {
      logFailure("opening the chat's channel (the chat is read when it opens)", error);
      return;
    }
    if (wanted !== sessionId) return; // it ended or changed meanwhile
    signal = new CallSignal({
      setup,
      channel: `private-call.${sessionId}`,
      onEvent: (event, data) => event === "ChatMessage" && onChat(event, data),
      onJoined: () => onChat("joined", null), // messages missed meanwhile are read again
      onRefused: (error) => logFailure("joining the chat's channel", error),
    });
  }

  watch(store, (s) => (writesOnly(s) ? servedSession(s) : null), (sessionId) => {
    if (sessionId !== wanted) follow(sessionId);
  });
}
