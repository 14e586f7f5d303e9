// The dashboard's text chat with the customer (for when the video fails), beside the video of the
// session in hand. The conversation is read from GET /api/sessions/{id}/chat when the session opens
// and each time the call channel is joined, then grows from its ChatMessage (video.js hands them to
// `onChat`); each message shows once (common/chat-log.js). It opens by itself when the video is
// unavailable, when it has not connected within `chatOpenSeconds` (the customer's camera refused:
// their side never joins), or when the customer writes; the customer's messages are announced by
// the log's live region. Free text up to the server's CHAT_MESSAGE_MAX_LENGTH, the count shown.
import { pgettext } from "../common/gettext.js";
import { chatFor, chatIntake, NO_CHAT, sendFailed, sent } from "../common/chat-log.js";
import { asFailure, logFailure } from "../common/report.js";
import { watch } from "../common/store.js";
import { byId, el, showError } from "../common/ui.js";
import { canSend, lengthWords, onVideoState, sendRefusal, speakerOf } from "./chat-state.js";

/** @typedef {import("./state.js").AgentState} AgentState */
/** @typedef {import("../common/chat-log.js").Chat} Chat */

/**
 * @param {import("../common/store.js").Store<AgentState>} store
 * @param {object} deps
 * @param {(path: string) => Promise<any>} deps.get
 * @param {(path: string, body: any) => Promise<any>} deps.post
 * @param {number} deps.maxLength CHAT_MESSAGE_MAX_LENGTH
 * @param {number} deps.openSeconds the video not connected this long opens the chat
 */
export function createChat(store, { get, post, maxLength, openSeconds }) {
  const chat = () => store.get().chat;
  const change = (/** @type {Partial<Chat>} */ patch) => store.set((s) => ({ chat: { ...s.chat, ...patch } }));
  const path = (/** @type {string} */ sessionId) => `/api/sessions/${sessionId}/chat`;
  let openTimer = 0; // a timer is not state: it only opens the chat later

  const { received, load } = chatIntake(store, {
    get,
    path,
    otherSide: "kiosk",
    onReadError: (error) => error.status !== 401 && logFailure("reading the chat", error), // a 401 goes to sign-in
  });

  watch(store, (s) => (s.session ? s.session.id : null), (sessionId) => {
    window.clearTimeout(openTimer);
    if (sessionId === chat().sessionId) return;
    const session = store.get().session;
    // A chat session's customer only writes: its chat is open from the start.
    store.set({ chat: sessionId ? { ...chatFor(sessionId), open: Boolean(session && session.medium === "chat") } : NO_CHAT });
    load();
  });

  async function send() {
    const { sessionId, draft } = chat();
    if (!sessionId || !canSend(chat(), maxLength)) return;
    change({ sending: true, error: "" });
    try {
      const message = await post(path(sessionId), { text: draft });
      if (chat().sessionId === sessionId) store.set((s) => ({ chat: sent(s.chat, message, draft) }));
    } catch (caught) {
      const error = asFailure(caught);
      if (chat().sessionId === sessionId) store.set((s) => ({ chat: sendFailed(s.chat, sendRefusal(error)) }));
    }
  }

  return {
    /** @param {string} event ChatMessage, or "joined" (read what was missed) @param {any} data */
    onChat(event, data) {
      if (event === "joined") load();
      else if (event === "ChatMessage") received([data]);
    },
    /** @param {string} state the video's */
    videoState(state) {
      window.clearTimeout(openTimer);
      const what = onVideoState(state);
      if (what === "open" && chat().sessionId) change({ open: true });
      if (what === "wait") openTimer = window.setTimeout(() => chat().sessionId && change({ open: true }), openSeconds * 1000);
    },
    send,
    type: (/** @type {string} */ draft) => change({ draft }),
    toggle: () => change({ open: !chat().open }),
    maxLength,
  };
}

/** @param {import("../common/store.js").Store<AgentState>} store @param {ReturnType<typeof createChat>} chat */
export function renderChat(store, chat) {
  const input = byId("chat-text", HTMLTextAreaElement);
  input.maxLength = chat.maxLength;
  byId("chat-toggle").addEventListener("click", () => {
    chat.toggle();
    if (store.get().chat.open) input.focus();
  });
  input.addEventListener("input", () => chat.type(input.value));
  // Enter sends, Shift+Enter is a new line (as in every chat box).
  input.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    chat.send();
  });
  byId("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    chat.send();
  });
  watch(store, (s) => s.chat.open, (open) => {
    byId("chat").hidden = !open;
    const toggle = byId("chat-toggle");
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? pgettext("agent", "Hide the chat") : pgettext("agent", "Write to the customer");
  });
  watch(store, (s) => s.chat.draft, (draft) => {
    if (input.value !== draft) input.value = draft;
    byId("chat-count").textContent = lengthWords(draft, chat.maxLength);
  });
  watch(store, (s) => canSend(s.chat, chat.maxLength), (ok) => (byId("chat-send", HTMLButtonElement).disabled = !ok));
  watch(store, (s) => s.chat.error, (error) => showError(byId("chat-error"), error));
  watch(store, (s) => s.chat.messages, drawMessages);
}

/** @param {AgentState["chat"]["messages"]} messages */
function drawMessages(messages) {
  const log = byId("chat-log");
  log.replaceChildren(
    ...messages.map((message) =>
      el(
        "li",
        { class: `message from-${message.sender}`, "data-message-id": message.id, "data-sender": message.sender },
        el("span", { class: "who", text: `${speakerOf(message)}: ` }),
        el("span", { class: "text", text: message.text }),
      ),
    ),
  );
  byId("chat-empty").hidden = messages.length > 0;
  log.scrollTop = log.scrollHeight;
}
