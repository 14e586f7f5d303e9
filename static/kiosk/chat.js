// The kiosk's text chat with the agent, for when the video fails or the customer
// would rather write. The conversation is read from GET .../sessions/{id}/chat when an agent starts
// serving (so a reload loses nothing) and again each time the call channel is joined (messages
// missed meanwhile), then grows from the channel's ChatMessage (video.js hands them to `onChat`);
// each message shows once however it came (common/chat-log.js). Large type, canned replies in the
// customer's language, a text box; a failed send is said in words and the typed text stays.
import { chatFor, chatIntake, NO_CHAT, sendFailed, sent } from "../common/chat-log.js";
import { logFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { byId, el, showError } from "../common/ui.js";
import { CANNED, chatOnly, lineOf, servedSession } from "./chat-state.js";
import { t } from "./messages.js";

/** @typedef {import("./state.js").KioskState} KioskState */
/** @typedef {import("../common/chat-log.js").Chat} Chat */

/**
 * @param {object} deps
 * @param {import("../common/store.js").Store<KioskState>} deps.store
 * @param {(path: string) => Promise<any>} deps.get
 * @param {(path: string, body: any) => Promise<any>} deps.post
 */
export function createChat({ store, get, post }) {
  const chat = () => store.get().chat;
  const change = (/** @type {Partial<Chat>} */ patch) => store.set((s) => ({ chat: { ...s.chat, ...patch } }));
  const path = (/** @type {string} */ sessionId) => `/api/public/sessions/${sessionId}/chat`;

  const { received, load } = chatIntake(store, {
    get,
    path,
    otherSide: "agent", // the agent wrote: the customer sees it even if they had not opened the chat
    onReadError: (error) => logFailure("reading the chat", error), // the call channel's messages still come
  });

  // A session an agent serves gets its chat, read at once (after a reload too); none otherwise.
  watch(store, servedSession, (sessionId) => {
    if (sessionId === chat().sessionId) return;
    store.set({ chat: sessionId ? chatFor(sessionId) : NO_CHAT });
    load();
  });
  watch(store, chatOnly, (only) => only && change({ open: true }));

  /** @param {string} text */
  async function send(text) {
    const sessionId = chat().sessionId;
    if (!sessionId || chat().sending || !text.trim()) return;
    change({ sending: true, error: "" });
    try {
      const message = await post(path(sessionId), { text });
      if (chat().sessionId === sessionId) store.set((s) => ({ chat: sent(s.chat, message, text) }));
    } catch (error) {
      logFailure("sending a chat message", error);
      if (chat().sessionId === sessionId) store.set((s) => ({ chat: sendFailed(s.chat, t(s.locale, "chat.send_failed")) }));
    }
  }

  return {
    /** The call channel's chat: a message, or "joined" (time to read what was missed). @param {string} event @param {any} data */
    onChat(event, data) {
      if (event === "joined") load();
      else if (event === "ChatMessage") received([data]);
    },
    send,
    /** @param {string} key a canned reply (chat-state.js CANNED) */
    reply: (key) => send(t(store.get().locale, key)),
    type: (/** @type {string} */ draft) => change({ draft }),
    open: (/** @type {boolean} */ open) => change({ open }),
  };
}

/** @param {import("../common/store.js").Store<KioskState>} store @param {ReturnType<typeof createChat>} chat */
export function renderChat(store, chat) {
  const input = byId("chat-text", HTMLInputElement);
  byId("chat-open").addEventListener("click", () => {
    chat.open(true);
    input.focus();
  });
  byId("chat-close").addEventListener("click", () => chat.open(false));
  byId("chat-canned").addEventListener("click", (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest("button[data-reply]");
    if (button instanceof HTMLElement && CANNED.includes(button.dataset.reply || "")) chat.reply(button.dataset.reply || "");
  });
  input.addEventListener("input", () => chat.type(input.value));
  byId("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    chat.send(store.get().chat.draft);
  });

  watch(store, (s) => `${Boolean(servedSession(s))}:${s.chat.open}`, (_, s) => {
    byId("chat").hidden = !s.chat.open;
    byId("chat-open").hidden = s.chat.open || !servedSession(s);
  });
  watch(store, chatOnly, (only) => (byId("chat-close").hidden = only)); // without video the chat is the way to talk
  watch(store, (s) => s.chat.draft, (draft) => input.value !== draft && (input.value = draft));
  watch(store, (s) => s.chat.sending, (sending) => (byId("chat-send", HTMLButtonElement).disabled = sending));
  watch(store, (s) => s.chat.error, (error) => showError(byId("chat-error"), error));
  const conversation = (/** @type {KioskState} */ s) => [s.chat.messages, s.locale];
  let last = conversation(store.get());
  drawMessages(store.get());
  store.subscribe((s) => {
    const now = conversation(s);
    if (now.every((part, at) => Object.is(part, last[at]))) return;
    last = now;
    drawMessages(s);
  });
}

/** The conversation, newest at the bottom and in view. @param {KioskState} state */
function drawMessages({ chat, locale }) {
  const log = byId("chat-log");
  log.replaceChildren(
    ...chat.messages.map((message) => {
      const line = lineOf(message, locale);
      return el(
        "li",
        { class: line.mine ? "message mine" : "message theirs", "data-message-id": message.id, "data-sender": message.sender },
        el("span", { class: "who", text: `${line.who}: ` }),
        el("span", { class: "text", text: line.text }),
      );
    }),
  );
  byId("chat-empty").hidden = chat.messages.length > 0;
  log.scrollTop = log.scrollHeight;
}
