// The chat's store parts, for when the video fails: the shared log (each message once, in order, only the
// session's; a failed send keeps the draft), the kiosk's when-it-shows and words in every language,
// and the dashboard's length, speaker and opening rules.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { canSend, lengthWords, onVideoState, sendRefusal, speakerOf } from "../../static/agent/chat-state.js";
import { chatFor, lastId, newMessages, readAfter, sendFailed, sent, withMessages } from "../../static/common/chat-log.js";
import { createStore } from "../../static/common/store.js";
import { CANNED, chatOnly, lineOf, servedSession, videoFails, writesOnly } from "../../static/kiosk/chat-state.js";
import { LOCALES, t } from "../../static/kiosk/messages.js";

const message = (id, sender, text, session = "S1") => ({
  id: String(id),
  session_id: session,
  sender,
  sender_name: sender === "agent" ? "Ada" : null,
  text,
  created_at: "2026-11-26T10:00:00Z",
});

test("messages from the page, the POST and the event show once each, ordered by id, only the session's", () => {
  let chat = chatFor("S1");
  chat = withMessages(chat, [message(2, "agent", "Hello"), message(1, "kiosk", "Hi")]);
  chat = withMessages(chat, [message(2, "agent", "Hello"), message(3, "kiosk", "Yes"), message(9, "kiosk", "elsewhere", "S2")]);
  assert.deepEqual(chat.messages.map((m) => m.id), ["1", "2", "3"]);
  assert.equal(lastId(chat), 3);
  assert.equal(lastId(chatFor("S1")), 0);
  assert.equal(withMessages(chat, [message(3, "kiosk", "Yes")]), chat, "nothing new: the same slice, nothing redrawn");
  assert.deepEqual(newMessages(chatFor("S1"), chat).map((m) => m.id), ["1", "2", "3"]);
  const numeric = withMessages(chat, [{ ...message(10, "agent", "Ten"), id: 10 }]);
  assert.deepEqual(numeric.messages.map((m) => m.id), ["1", "2", "3", "10"], "ids compare as numbers, kept as strings");
});

test("a sent draft empties the box; a canned reply leaves the draft; a failure keeps it and says why", () => {
  const typing = { ...chatFor("S1"), draft: "A burger please ", sending: true };
  const after = sent(typing, message(4, "kiosk", "A burger please"), "A burger please ");
  assert.equal(after.draft, "");
  assert.equal(after.sending, false);
  assert.deepEqual(after.messages.map((m) => m.text), ["A burger please"]);
  const canned = sent(typing, message(5, "kiosk", "Yes"), "Yes");
  assert.equal(canned.draft, "A burger please ");
  const failed = sendFailed(typing, t("es-ES", "chat.send_failed"));
  assert.equal(failed.draft, "A burger please ");
  assert.equal(failed.sending, false);
  assert.equal(failed.error, "No se pudo enviar tu mensaje. Inténtalo de nuevo.");
});

test("the whole conversation is read page by page after the last known id", async () => {
  const asked = [];
  const pages = {
    "/chat?after=0&limit=100": { messages: [message(1, "kiosk", "a"), message(2, "agent", "b")], has_more: true },
    "/chat?after=2&limit=100": { messages: [message(3, "kiosk", "c")], has_more: false },
  };
  const get = async (path) => (asked.push(path), pages[path]);
  assert.deepEqual((await readAfter(get, "/chat", 0)).map((m) => m.id), ["1", "2", "3"]);
  assert.deepEqual(asked, ["/chat?after=0&limit=100", "/chat?after=2&limit=100"]);
});

test("the kiosk's chat belongs to a served session and opens by itself when the video is unavailable", () => {
  const store = createStore({
    sessionId: "S1",
    status: { status: "pending", agent: null },
    video: { idle: true, state: "idle", words: "" },
  });
  assert.equal(servedSession(store.get()), null, "nobody to write to while waiting");
  store.set({ status: { status: "active", agent: { name: "Ada" } } });
  assert.equal(servedSession(store.get()), "S1");
  assert.equal(videoFails(store.get()), false);
  store.set({ video: { idle: false, state: "unavailable", words: "" } });
  assert.equal(videoFails(store.get()), true);
  store.set({ status: { status: "payment", agent: { name: "Ada" } } });
  assert.equal(videoFails(store.get()), true, "paying: still served");
  store.set({ status: { status: "completed", agent: { name: "Ada" } } });
  assert.equal(servedSession(store.get()), null);
  assert.equal(videoFails(store.get()), false);
});

test("a session started to write is a chat from the start, and its chat stays open once served", () => {
  const video = { idle: true, state: "idle", words: "" };
  const store = createStore({ sessionId: "S1", status: { status: "pending", agent: null, medium: "chat" }, video });
  assert.equal(writesOnly(store.get()), true, "waiting: no camera either");
  assert.equal(chatOnly(store.get()), false, "nobody to write to yet");
  store.set({ status: { status: "active", agent: { name: "Ada" }, medium: "chat" } });
  assert.equal(chatOnly(store.get()), true);
  store.set({ status: { status: "payment", agent: { name: "Ada" }, medium: "chat" } });
  assert.equal(chatOnly(store.get()), true, "paying: still the chat");
  store.set({ status: { status: "active", agent: { name: "Ada" }, medium: "video" } });
  assert.equal(writesOnly(store.get()), false);
  assert.equal(chatOnly(store.get()), false, "a video session with its video: the chat is the customer's choice");
  store.set({ sessionId: null, status: null });
  assert.equal(writesOnly(store.get()), false);
});

test("the kiosk says who wrote each message and has its canned replies in every language", () => {
  assert.deepEqual(lineOf(message(1, "kiosk", "Hi"), "fr-FR"), { who: "Vous", text: "Hi", mine: true });
  assert.deepEqual(lineOf(message(2, "agent", "Hello"), "de-DE"), { who: "Ada", text: "Hello", mine: false });
  assert.equal(lineOf({ ...message(2, "agent", "Hello"), sender_name: null }, "es-ES").who, "Agente");
  for (const locale of LOCALES) {
    for (const key of [...CANNED, "chat.send", "chat.input_label", "chat.close", "chat.send_failed", "chat.open"]) {
      assert.notEqual(t(locale, key), key, `${locale} lacks ${key}`);
    }
  }
  assert.deepEqual(CANNED.map((key) => t("es-ES", key)), ["Sí", "No", "¿Puede repetir?"]);
});

test("the dashboard shows the server's limit, sends only what fits and opens when the call fails", () => {
  assert.equal(lengthWords("Hello", 500), "5 / 500 characters");
  const chat = { ...chatFor("S1"), draft: "Hello" };
  assert.equal(canSend(chat, 500), true);
  assert.equal(canSend({ ...chat, draft: "   " }, 500), false);
  assert.equal(canSend({ ...chat, draft: "x".repeat(501) }, 500), false);
  assert.equal(canSend({ ...chat, sending: true }, 500), false);
  assert.equal(canSend({ ...chat, sessionId: null }, 500), false);
  assert.equal(speakerOf(message(1, "kiosk", "Hi")), "Customer");
  assert.equal(speakerOf(message(2, "agent", "Hello")), "Ada");
  assert.deepEqual(["unavailable", "connecting", "reconnecting", "connected", "idle"].map(onVideoState), ["open", "wait", "wait", "none", "none"]);
  assert.equal(sendRefusal({ code: "VALIDATION_ERROR", message: "x", details: { text: ["At most 500 characters."] } }), "Not sent: At most 500 characters.");
  assert.equal(sendRefusal({ code: "SESSION_ALREADY_ENDED", message: "This session has already ended." }), "Not sent: This session has already ended.");
});
