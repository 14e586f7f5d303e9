// A session's chat as both apps keep it in their store (static/kiosk/chat.js, static/agent/chat.js):
// the messages oldest first, each once whichever way it came (the GET page after a reload or a
// rejoin of the call channel, the POST's answer, the ChatMessage event), the text being typed,
// and why the last send failed. Pure: each function answers a new chat slice.

/**
 * @typedef {{id: string, session_id: string, sender: "kiosk" | "agent", sender_name: string | null, text: string, created_at: string}} ChatMessage
 * @typedef {object} Chat
 * @property {string | null} sessionId the session this chat belongs to (a new session starts a new chat)
 * @property {boolean} open the panel shows
 * @property {ChatMessage[]} messages oldest first, each id once
 * @property {string} draft what is typed and not yet sent (kept when a send fails)
 * @property {boolean} sending a message is on its way
 * @property {string} error why the last send failed, in words ("" when it did not)
 */

/** @type {Chat} */
export const NO_CHAT = Object.freeze({ sessionId: null, open: false, messages: [], draft: "", sending: false, error: "" });

/** A fresh chat for a session, closed. @param {string | null} sessionId @returns {Chat} */
export const chatFor = (sessionId) => ({ ...NO_CHAT, sessionId });

/**
 * The chat with these messages added: only the chat's session's, each id once, ordered by id (the
 * server's order of writing). The same slice when nothing is new (the store then draws nothing).
 * @param {Chat} chat @param {ChatMessage[]} incoming
 */
export function withMessages(chat, incoming) {
  const known = new Set(chat.messages.map((message) => message.id));
  const fresh = incoming.filter((message) => message && message.session_id === chat.sessionId && !known.has(String(message.id)));
  if (!fresh.length) return chat;
  const messages = [...chat.messages, ...fresh.map((message) => ({ ...message, id: String(message.id) }))];
  messages.sort((a, b) => Number(a.id) - Number(b.id));
  return { ...chat, messages };
}

/** The id the next GET starts after (`?after=`): the newest known, 0 for none. @param {Chat} chat */
export const lastId = (chat) => (chat.messages.length ? Number(chat.messages[chat.messages.length - 1].id) : 0);

/** The messages in `after` that `before` did not have. @param {Chat} before @param {Chat} after */
export const newMessages = (before, after) => after.messages.filter((message) => !before.messages.some((old) => old.id === message.id));

/**
 * A message went: it joins the conversation and the draft empties if it was the draft (a canned
 * reply leaves what is typed alone). @param {Chat} chat @param {ChatMessage} message @param {string} text what was sent
 */
export function sent(chat, message, text) {
  return { ...withMessages(chat, [message]), sending: false, error: "", draft: chat.draft.trim() === text.trim() ? "" : chat.draft };
}

/** A send failed: said in words, the draft kept for another try. @param {Chat} chat @param {string} words */
export const sendFailed = (chat, words) => ({ ...chat, sending: false, error: words });

/**
 * Every message after `after`, page by page (GET .../chat?after=&limit=100 answers `has_more`).
 * @param {(path: string) => Promise<{messages: ChatMessage[], has_more: boolean}>} get
 * @param {string} path the session's chat endpoint @param {number} after
 */
export async function readAfter(get, path, after) {
  const all = [];
  for (let from = after, more = true; more; ) {
    const page = await get(`${path}?after=${from}&limit=100`);
    all.push(...page.messages);
    more = page.has_more && page.messages.length > 0;
    if (page.messages.length) from = Number(page.messages[page.messages.length - 1].id);
  }
  return all;
}

/**
 * What both apps do with messages coming in: `received` merges them (a read's page or the
 * channel's ChatMessage) into the store's chat once each, opening the chat when the other side
 * wrote; `load` reads what came since the last message shown (on opening, after a rejoin).
 * @param {import("./store.js").Store<any>} store a store with a `chat: Chat`
 * @param {object} options
 * @param {(path: string) => Promise<any>} options.get
 * @param {(sessionId: string) => string} options.path the session's chat endpoint on this surface
 * @param {"kiosk" | "agent"} options.otherSide whose messages open the chat
 * @param {(error: any) => void} options.onReadError
 */
export function chatIntake(store, { get, path, otherSide, onReadError }) {
  const chat = () => /** @type {Chat} */ (store.get().chat);

  /** @param {ChatMessage[]} messages */
  function received(messages) {
    const before = chat();
    const after = withMessages(before, messages);
    if (after === before) return;
    const theyWrote = newMessages(before, after).some((message) => message.sender === otherSide);
    store.set({ chat: theyWrote ? { ...after, open: true } : after });
  }

  async function load() {
    const sessionId = chat().sessionId;
    if (!sessionId) return;
    try {
      const messages = await readAfter(get, path(sessionId), lastId(chat()));
      if (chat().sessionId === sessionId) received(messages);
    } catch (error) {
      onReadError(error);
    }
  }

  return { received, load };
}
