// The dashboard's chat, free of the DOM (unit-tested in tests/js/chat.test.js): who said each
// message, the length left, and when the chat opens by itself. chat.js acts, draws and listens.
import { interpolate, pgettext } from "../common/gettext.js";

/** Who wrote it, as the agent reads it. @param {import("../common/chat-log.js").ChatMessage} message */
export const speakerOf = (message) => (message.sender === "kiosk" ? pgettext("agent", "Customer") : message.sender_name || pgettext("agent", "Agent"));

/** The length shown under the box: the server's limit (CHAT_MESSAGE_MAX_LENGTH). @param {string} draft @param {number} max */
export const lengthWords = (draft, max) => `${draft.length} / ${max} characters`;

/** Whether this draft can go: some text, within the limit, nothing on its way. @param {import("../common/chat-log.js").Chat} chat @param {number} max */
export const canSend = (chat, max) => Boolean(chat.sessionId) && !chat.sending && chat.draft.trim().length > 0 && chat.draft.trim().length <= max;

/**
 * What a change of the video's state does to the chat: "open" now (the video is unavailable),
 * "wait" (connecting or reconnecting: open if it has not connected within the setting's seconds, e.g. the
 * customer's camera is refused and their side never joins the call), or "none".
 * @param {string} videoState idle, connecting, reconnecting, connected or unavailable
 * @returns {"open" | "wait" | "none"}
 */
export function onVideoState(videoState) {
  if (videoState === "unavailable") return "open";
  return videoState === "connecting" || videoState === "reconnecting" ? "wait" : "none";
}

/** Why a send failed, in words. @param {{code?: string, message?: string, details?: Record<string, unknown>}} error */
export function sendRefusal(error) {
  if (error.code === "VALIDATION_ERROR") return interpolate(pgettext("agent", "Not sent: %(why)s"), { why: Object.values(error.details || {}).flat().join(" ") || error.message || "" });
  if (error.code === "NETWORK") return pgettext("agent", "Not sent: the server cannot be reached. Your text is kept: try again.");
  return interpolate(pgettext("agent", "Not sent: %(why)s"), { why: error.message || "" });
}
