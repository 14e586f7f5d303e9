// Paying on the kiosk's card reader (static/kiosk/reader.js, payment.js): no card fields, what to
// do on the reader, its name and state, and a decline in the customer's words, in every language.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { closeKiosks, kiosk, serve, until } from "./support/kiosk-session.js";
import "./support/catalogues.js"; // the kiosk's words, from the .po files
import { CATALOGS, t } from "../../static/kiosk/messages.js";
import { paymentMethodFor } from "../../static/kiosk/payment.js";
import { agentSendRefused, cardFieldsInsteadNote, currentReader, offersCardFields, onReader, readerRefusal, readerView } from "../../static/kiosk/reader.js";

// The polling timers the session keeps (setInterval, real, counted): "polling" is one running.
const running = new Set();
const realSetInterval = setInterval;
const realClearInterval = clearInterval;
globalThis.setInterval = /** @type {any} */ ((fn, ms) => {
  const timer = realSetInterval(fn, ms);
  running.add(timer);
  return timer;
});
globalThis.clearInterval = /** @type {any} */ ((timer) => {
  running.delete(timer);
  realClearInterval(timer);
});

afterEach(() => {
  closeKiosks();
  delete globalThis.document;
});

const READER = { label: "Till", status: "online", action_status: "in_progress" };
const BODY = { client_secret: "pi_1_secret", amount_cents: 1300, currency: "USD", processor: { mode: "demo", confirm_url: "/x" } };

test("only a card_present payment is paid on the reader; a card payment keeps its card fields", () => {
  assert.equal(onReader({ ...BODY, method: "card_present", reader: READER }), true);
  assert.equal(onReader({ ...BODY, method: "card", reader: null }), false);
  assert.equal(onReader(BODY), false); // a body from before readers
  assert.equal(onReader(null), false);
  const onTheReader = paymentMethodFor({ ...BODY, method: "card_present", reader: READER });
  assert.equal(onTheReader.mode, "demo");
  assert.equal(onTheReader.constructor.name, "ReaderPayment");
  assert.equal(paymentMethodFor({ ...BODY, method: "card" }).constructor.name, "DemoCardPayment");
  assert.equal(paymentMethodFor({ ...BODY, method: "card_present", processor: { mode: "live" } }).mode, "live");
});

test("the status body's reader (read again while paying) wins over the payment's own", () => {
  const payment = { method: "card_present", reader: READER };
  assert.deepEqual(currentReader(payment, null), READER);
  assert.deepEqual(currentReader(payment, { payment: null }), READER);
  const offline = { ...READER, status: "offline" };
  assert.deepEqual(currentReader(payment, { payment: { method: "card_present", reader: offline } }), offline);
  assert.equal(currentReader({ method: "card" }, null), null);
});

test("a reader waiting for the card says so, with its name", () => {
  assert.deepEqual(readerView(READER), {
    state: "waiting",
    instruction: "Tap, insert or swipe your card on the reader",
    label: "Card reader: Till",
    note: "",
  });
  assert.equal(readerView(READER, "es-ES").instruction, "Acerca, inserta o desliza tu tarjeta en el lector");
  assert.equal(readerView(null).state, "waiting"); // before any report: the payment was handed to it
});

test("an offline reader, and one not holding the payment yet, say so plainly; a card taken is being confirmed", () => {
  const offline = readerView({ ...READER, status: "offline" }, "de-DE");
  assert.equal(offline.state, "offline");
  assert.equal(offline.instruction, "");
  assert.match(offline.note, /Kartenlesegerät ist gerade nicht verbunden/);
  for (const action of ["", "canceled", "failed"]) {
    const view = readerView({ ...READER, action_status: action });
    assert.equal(view.state, "not_ready", action);
    assert.equal(view.note, "The card reader is getting ready for your payment. Please wait a moment.");
  }
  const taken = readerView({ ...READER, action_status: "succeeded" }, "fr-FR");
  assert.deepEqual([taken.state, taken.note], ["confirming", "Confirmation de votre paiement…"]);
});

test("a decline says why from the processor's code, in the customer's language, and that another card may be tried on the reader", () => {
  assert.equal(readerRefusal("insufficient_funds"), "Card declined: the card has insufficient funds. You may try another card on the reader.");
  assert.equal(
    readerRefusal("insufficient_funds", "es-ES"),
    "Tarjeta rechazada: la tarjeta no tiene fondos suficientes. Puedes probar con otra tarjeta en el lector.",
  );
  assert.equal(readerRefusal("expired_card", "fr-FR"), "Carte refusée : la carte a expiré. Vous pouvez essayer une autre carte sur le lecteur.");
  assert.equal(readerRefusal("card_not_supported"), "Card declined: the card does not support this purchase. You may try another card on the reader.");
  assert.equal(readerRefusal("currency_not_supported"), readerRefusal("card_not_supported"));
  assert.equal(readerRefusal("incorrect_pin", "de-DE"), "Karte abgelehnt: die PIN war falsch. Sie können eine andere Karte am Lesegerät versuchen.");
  assert.equal(readerRefusal("card_velocity_exceeded"), "Card declined: the card's spending limit was reached. You may try another card on the reader.");
  // a plain decline, a bank's own reason, an unknown code or none: "declined", nothing more
  for (const code of ["card_declined", "generic_decline", "do_not_honor", "stolen_card", "something_new", "", null, undefined]) {
    assert.equal(readerRefusal(code), "Card declined. You may try another card on the reader.", String(code));
  }
  assert.equal(readerRefusal("card_declined", "de-DE"), "Karte abgelehnt. Sie können eine andere Karte am Lesegerät versuchen.");
  // the processor's English sentence says nothing: only its code is read
  assert.equal(readerRefusal("Your card has insufficient funds."), "Card declined. You may try another card on the reader.");
  // a processing fault, or a card the reader could not read, is no decline: the same card may be presented again
  assert.match(readerRefusal("processing_error"), /was not declined/);
  assert.match(readerRefusal("card_read_failed"), /could not be read \(it was not declined\)/);
  assert.match(readerRefusal("card_read_failed", "es-ES"), /No se ha podido leer la tarjeta/);
  assert.equal(readerRefusal("toString"), "Card declined. You may try another card on the reader."); // no inherited names
});

test("a card the reader could not read is said from the reader's own code (no payment failed)", () => {
  const view = readerView({ ...READER, action_status: "failed", failure_code: "card_read_failed" }, "fr-FR");
  assert.equal(view.state, "not_read");
  assert.match(view.note, /La carte n'a pas pu être lue/);
  assert.equal(readerView({ ...READER, action_status: "failed", failure_code: "card_declined" }).state, "not_ready");
});

test("every reader sentence is in every language with its placeholders", () => {
  const keys = Object.keys(CATALOGS.en).filter((key) => key.startsWith("reader."));
  assert.ok(keys.length >= 10, keys.join());
  for (const language of Object.keys(CATALOGS)) {
    for (const key of keys) {
      assert.ok(CATALOGS[language][key], `${language} lacks ${key}`);
      assert.deepEqual(CATALOGS[language][key].match(/\{\w+\}/g), CATALOGS.en[key].match(/\{\w+\}/g), `${language} ${key}`);
    }
  }
  assert.equal(t("es-ES", "reader.name", { label: "Caja" }), "Lector de tarjetas: Caja");
});

/** A payment waiting for its card: BODY with `fields`. */
const waiting = (fields) => ({ ...BODY, status: "requires_payment_method", failure_message: "", ...fields });

/** A kiosk's routes while paying `payment` (a session started, its cart, the menu), and `more`. */
function paying(payment, more = {}) {
  return {
    "POST /api/public/sessions/start": [201, { session_id: "s1", poll_url: "/api/public/sessions/s1/status", status: "pending" }],
    "GET /api/public/sessions/s1/order": [200, { lines: [], currency: "USD" }],
    "GET /api/public/sessions/s1/payment": [200, payment],
    "GET /api/public/menu": [200, { categories: [] }],
    ...more,
  };
}

/** The document the card fields are drawn in (DemoCardPayment's inputs); afterEach takes it away. */
function cardFieldsDocument() {
  const element = () => ({ setAttribute() {}, append() {}, addEventListener() {}, dataset: {}, style: {} });
  globalThis.document = /** @type {any} */ ({ createElement: element, createTextNode: () => ({}) });
}

test("paying on the reader: no card fields, the status read even while live, a decline kept to be said, cancel as today", async () => {
  let reader = READER;
  const status = () => [200, { session_id: "s1", status: "payment", agent: { name: "Ada" }, video_channel: "c", payment: { method: "card_present", reader } }];
  const payment = waiting({ method: "card_present", reader: READER });
  const asked = serve(paying(payment, { "GET /api/public/sessions/s1/status": status }));
  let drawn = 0;
  const { store, session, said } = kiosk({ pollSeconds: 0.02, paymentForm: { replaceChildren: () => (drawn += 1) } });
  store.set({ locale: "es-ES" });
  await session.start("es-ES");
  session.setLive(true, false);
  session.onEvent("SessionStatusChanged", status()[1]);
  session.onEvent("PaymentRequested", { session_id: "s1", ...payment });
  await until(() => store.get().payment !== null, "the payment step");
  assert.equal(running.size, 1); // live, and still polling
  const shown = store.get().payment;
  assert.deepEqual([shown.method, shown.reader, shown.state, shown.mode], ["card_present", READER, "ready", "demo"]);
  assert.ok(drawn >= 1); // the card fields' place emptied: nothing to type
  assert.ok(said.includes("Acerca, inserta o desliza tu tarjeta en el lector"));

  // live, and still the status is read: the reader's reports come by no event
  reader = { ...READER, status: "offline" };
  await until(() => store.get().status.payment.reader.status === "offline", "the reader's report");

  session.onEvent("PaymentFailed", { session_id: "s1", message: "Your card has insufficient funds.", failure_code: "insufficient_funds" });
  const declined = store.get().payment;
  assert.deepEqual([declined.state, declined.failure_message, declined.failure_code], ["declined", "Your card has insufficient funds.", "insufficient_funds"]);
  assert.equal(said.at(-1), "Tarjeta rechazada: la tarjeta no tiene fondos suficientes. Puedes probar con otra tarjeta en el lector.");
  // the cause is the code's, whatever the processor's sentence
  session.onEvent("PaymentFailed", { session_id: "s1", message: "Votre carte a expiré.", failure_code: "expired_card" });
  assert.equal(said.at(-1), "Tarjeta rechazada: la tarjeta ha caducado. Puedes probar con otra tarjeta en el lector.");

  session.onEvent("PaymentCancelled", { session_id: "s1" });
  assert.equal(store.get().payment, null);
  assert.equal(running.size, 0); // back to the cart while live: the status is not read any more
  assert.ok(asked.includes("GET /api/public/sessions/s1/status"));
});

test("a card payment keeps today's behaviour: no polling while live, the decline in the card's words", async () => {
  const payment = waiting({ method: "card", reader: null });
  serve(paying(payment));
  cardFieldsDocument();
  const { store, session } = kiosk({ pollSeconds: 0.02 });
  await session.start("en-US");
  session.setLive(true, false);
  session.onEvent("SessionStatusChanged", { session_id: "s1", status: "payment", agent: { name: "Ada" }, video_channel: "c", payment: { method: "card", reader: null } });
  session.onEvent("PaymentRequested", { session_id: "s1", ...payment });
  await until(() => store.get().payment !== null, "the payment step");
  assert.equal(running.size, 0); // live: no status reads
  session.onEvent("PaymentFailed", { session_id: "s1", message: "Your card was declined." });
  assert.deepEqual([store.get().payment.state, store.get().payment.error], ["declined", "Card declined, try another card."]);
});

test("a decline said by the processor's answer is not said again by the service's PaymentFailed, which would wipe the next card typed", async () => {
  const payment = waiting({ method: "card", reader: null });
  serve(paying(payment));
  cardFieldsDocument();
  /** @type {any[]} */
  let fields = [];
  const { store, session, said } = kiosk({ paymentForm: { replaceChildren: (...nodes) => (fields = nodes) } });
  await session.start("en-US");
  session.setLive(true, false);
  session.onEvent("PaymentRequested", { session_id: "s1", ...payment });
  await until(() => store.get().payment !== null && fields.length > 0, "the card fields");
  session.onEvent("PaymentFailed", { session_id: "s1", message: "Your card was declined." }); // the first word of the decline
  const card = fields[1];
  card.value = "4242 4242 4242 4242"; // the customer types the next card at once
  session.onEvent("PaymentFailed", { session_id: "s1", message: "Your card was declined." }); // the same decline, said again late
  assert.equal(card.value, "4242 4242 4242 4242");
  assert.equal(said.filter((words) => words === "Card declined, try another card.").length, 1);
  assert.equal(store.get().payment.state, "declined");
});

test("the card fields are offered instead only where the owner allows it and only while the reader cannot take the card", () => {
  const allowed = { method: "card_present", card_fields_fallback: true };
  assert.equal(offersCardFields(allowed, { ...READER, status: "offline" }), true);
  assert.equal(offersCardFields(allowed, { ...READER, action_status: "canceled" }), true); // busy with something else
  assert.equal(offersCardFields(allowed, READER), false); // waiting for the card: pay on it
  assert.equal(offersCardFields(allowed, { ...READER, action_status: "succeeded" }), false); // being confirmed
  assert.equal(offersCardFields(allowed, { ...READER, action_status: "failed", failure_code: "card_read_failed" }), false);
  assert.equal(offersCardFields({ ...allowed, card_fields_fallback: false }, { ...READER, status: "offline" }), false);
  assert.equal(offersCardFields({ method: "card_present" }, { ...READER, status: "offline" }), false); // off by default
  assert.equal(t("es-ES", "reader.card_fields_instead"), "Pagar con los campos de tarjeta en su lugar");
});

test("card fields standing in for the reader say so; no other payment does", () => {
  assert.equal(cardFieldsInsteadNote({ method: "card", instead_of_reader: true }), "The card reader cannot take your card right now: please pay with your card here instead.");
  assert.equal(cardFieldsInsteadNote({ method: "card", instead_of_reader: true }, "fr-FR"), "Le lecteur de cartes ne peut pas encaisser pour le moment : payez plutôt ici avec votre carte.");
  assert.equal(cardFieldsInsteadNote({ method: "card", instead_of_reader: false }), "");
  assert.equal(cardFieldsInsteadNote({ method: "card" }), ""); // a body from before the field
  assert.equal(cardFieldsInsteadNote({ method: "card_present", instead_of_reader: true }), "");
  assert.equal(cardFieldsInsteadNote(null), "");
});

test("a card payment sent while the reader refused it: the card fields, the note kept in the store", async () => {
  const cardBody = waiting({ failure_code: "", method: "card", reader: null, card_fields_fallback: false, instead_of_reader: true });
  serve(paying(cardBody));
  cardFieldsDocument();
  const { store, session, said } = kiosk({ pollSeconds: 60 });
  store.set({ locale: "es-ES" }); // the customer chose Spanish on the attract screen
  await session.start("es-ES");
  session.onEvent("PaymentRequested", { session_id: "s1", ...cardBody });
  await until(() => store.get().payment !== null, "the payment step");
  const shown = store.get().payment;
  assert.deepEqual([shown.method, shown.instead_of_reader, shown.mode], ["card", true, "demo"]);
  assert.equal(cardFieldsInsteadNote(shown, "es-ES"), "El lector de tarjetas no puede cobrar ahora: paga aquí con tu tarjeta.");
  // A decline on these card fields is said from its code in the customer's language.
  session.onEvent("PaymentFailed", { session_id: "s1", message: "Your card has insufficient funds.", failure_code: "insufficient_funds" });
  const declined = "Tarjeta rechazada: la tarjeta no tiene fondos suficientes. Prueba con otra tarjeta.";
  assert.deepEqual([store.get().payment.state, store.get().payment.error], ["declined", declined]);
  assert.equal(said.at(-1), declined);
});

test("paying with the card fields instead swaps the reader's payment for the card one", async () => {
  const reader = { ...READER, status: "offline" };
  const onReaderBody = waiting({ failure_code: "", method: "card_present", reader, card_fields_fallback: true });
  const cardBody = waiting({ client_secret: "pi_2_secret", failure_code: "", method: "card", reader: null, card_fields_fallback: false });
  const asked = serve(
    paying(onReaderBody, {
      "GET /api/public/sessions/s1/status": [200, { session_id: "s1", status: "payment", agent: null, payment: { method: "card_present", reader, failure_code: "" } }],
      "POST /api/public/sessions/s1/payment/card-fields": [200, cardBody],
    }),
  );
  cardFieldsDocument();
  const { store, session } = kiosk({ pollSeconds: 60 });
  await session.start("en-US");
  session.showPayment(onReaderBody);
  assert.equal(store.get().payment.method, "card_present");
  await session.payWithCardFields();
  assert.ok(asked.includes("POST /api/public/sessions/s1/payment/card-fields"));
  const shown = store.get().payment;
  assert.deepEqual([shown.method, shown.client_secret, shown.state], ["card", "pi_2_secret", "ready"]);
  await session.payWithCardFields(); // now a card payment: nothing more is asked
  assert.equal(asked.filter((key) => key.endsWith("/card-fields")).length, 1);
});

test("the reader refused the agent's send: what happened and that the agent tries again, in the customer's language", () => {
  const offline = { reason: "offline", refused_at: "2026-11-27T21:00:00Z" };
  const busy = { reason: "busy", refused_at: "2026-11-27T21:00:00Z" };
  assert.equal(agentSendRefused(offline, "Ada"), "The card reader is not answering right now. Your order is kept: Ada will try again.");
  assert.equal(agentSendRefused(offline, "Ada", "es-ES"), "El lector de tarjetas no responde ahora. Tu pedido se guarda: Ada lo intentará de nuevo.");
  assert.equal(agentSendRefused(busy, "Ada", "fr-FR"), "Le lecteur de cartes est occupé par un autre paiement. Votre commande est conservée : Ada va réessayer dans un instant.");
  assert.match(agentSendRefused(busy, "Ada", "de-DE"), /anderen Zahlung beschäftigt.*Ada versucht es gleich noch einmal/);
  assert.match(agentSendRefused({ reason: "something_new", refused_at: "x" }, "Ada"), /not answering/); // an unknown reason
  assert.match(agentSendRefused(offline, null), /Someone will try again/); // no name known
  assert.equal(agentSendRefused(null, "Ada"), "");
  assert.equal(agentSendRefused(undefined, "Ada"), "");
});

test("ReaderRefused is kept on the active status body and said once; the status after a retry clears it", async () => {
  const active = { session_id: "s1", status: "active", agent: { name: "Ada" }, video_channel: "c", reader_refusal: null };
  const refusal = { reason: "offline", refused_at: "2026-11-27T21:00:00Z" };
  let current = active; // what the status read answers
  const asked = serve(paying(waiting({ method: "card_present", reader: READER }), { "GET /api/public/sessions/s1/status": () => [200, current] }));
  const { store, session, said } = kiosk({ pollSeconds: 3600 });
  store.set({ locale: "es-ES" });
  await session.start("es-ES");
  session.setLive(true, false);
  await until(() => store.get().status.status === "active", "the agent's session");
  assert.equal(store.get().status.reader_refusal, null);

  current = { ...active, reader_refusal: refusal };
  session.onEvent("ReaderRefused", { session_id: "s1", reader_refusal: refusal });
  assert.deepEqual(store.get().status.reader_refusal, refusal);
  const words = "El lector de tarjetas no responde ahora. Tu pedido se guarda: Ada lo intentará de nuevo.";
  assert.equal(said.filter((text) => text === words).length, 1);
  // the status read again (a reconnect, a reload) says the same refusal: not said again
  await session.refresh();
  assert.deepEqual(store.get().status.reader_refusal, refusal);
  assert.equal(said.filter((text) => text === words).length, 1);
  session.onEvent("ReaderRefused", { session_id: "other", reader_refusal: { ...refusal, reason: "busy" } }); // not this session's
  assert.equal(store.get().status.reader_refusal.reason, "offline");

  // the retry went through: the session is in payment and the refusal is over
  current = { ...active, status: "payment", payment: { method: "card_present", reader: READER } };
  session.onEvent("SessionStatusChanged", current);
  assert.equal(store.get().status.reader_refusal, null);
  // a late ReaderRefused once the session moved on is not kept
  session.onEvent("ReaderRefused", { session_id: "s1", reader_refusal: refusal });
  assert.equal(store.get().status.reader_refusal, null);
  assert.ok(asked.includes("GET /api/public/sessions/s1/status"));
});
