// The kiosk's chat, free of the DOM (unit-tested in tests/js/chat.test.js): when it is there, when
// it opens by itself, and each message in the customer's words. chat.js acts, draws and listens.
import { t } from "./messages.js";

/** @typedef {import("./state.js").KioskState} KioskState */

/** The session an agent serves (active or paying), whose chat is open to write; null otherwise. @param {KioskState} state */
export function servedSession({ sessionId, status }) {
  const serving = status && (status.status === "active" || status.status === "payment") && status.agent;
  return sessionId && serving ? sessionId : null;
}

/**
 * The chat opens by itself when the video cannot be had (camera missing or refused, the provider
 * unreachable: the call says "unavailable"); otherwise the customer chooses it ("Write instead").
 * @param {KioskState} state
 */
export const videoFails = (state) => Boolean(servedSession(state)) && state.video.state === "unavailable";

/**
 * A session started to write only (`medium: "chat"` in its status body), served or not: no camera,
 * no call, the chat is its conversation (chat-session.js). @param {KioskState} state
 */
export const writesOnly = ({ sessionId, status }) => Boolean(sessionId && status && status.medium === "chat");

/** The chat is the way to talk and stays open: the video failed, or the customer chose to write. @param {KioskState} state */
export const chatOnly = (state) => videoFails(state) || (Boolean(servedSession(state)) && writesOnly(state));

/** Who said it and what, as the customer reads it. @param {import("../common/chat-log.js").ChatMessage} message @param {string} locale */
export function lineOf(message, locale) {
  const who = message.sender === "kiosk" ? t(locale, "chat.you") : message.sender_name || t(locale, "chat.agent");
  return { who, text: message.text, mine: message.sender === "kiosk" };
}

/** The canned replies, as message keys: the text sent is the customer's language's. */
export const CANNED = Object.freeze(["chat.yes", "chat.no", "chat.repeat"]);
