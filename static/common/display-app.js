// What the kitchen display and the order board share: who the screen is (GET /api/displays/me,
// or the sign-in screen when the link is not valid), the live feed with its polling, the whole
// state read once per (re)connection, and the sound button. Each screen brings its own snapshot
// merge, events and words.
import { pgettext } from "./gettext.js";
import { DisplayFeed } from "./display-feed.js";
import { asFailure } from "./report.js";
import { byId } from "./ui.js";

/**
 * @typedef {object} DisplayState the fields every display's store has
 * @property {string} screen
 * @property {import("./display-api.js").DisplayMe | null} me
 * @property {"" | "live" | "polling"} realtime
 * @property {boolean} sound
 * @property {string} alert
 * @property {string} signinReason
 */

/**
 * @param {object} options
 * @param {import("./display-api.js").DisplayApi} options.api
 * @param {import("./store.js").Store<any>} options.store a store with DisplayState's fields
 * @param {"kitchen" | "board"} options.screen also the name of its channel in `me.channels`
 * @param {(reason: string) => string} options.cannotStart the alert when the screen cannot start
 * @param {(me: import("./display-api.js").DisplayMe) => string} options.title the window's title
 * @param {string} options.snapshotPath the API path that reads the whole state
 * @param {(body: any, askedAt: number) => void} options.applySnapshot merges a read into the store
 * @param {Record<string, (data: any) => void>} options.events what each channel message does
 * @param {import("./chime.js").Chime} options.chime
 * @param {boolean} [options.chimeWhenTurnedOn] plays once as the sound is turned on
 * @returns {{ start: () => Promise<void>, poll: (askedAt: number) => Promise<void> }}
 */
export function displayApp({ api, store, screen, cannotStart, title, snapshotPath, applySnapshot, events, chime, chimeWhenTurnedOn }) {
  /** @param {string} reason */
  function signIn(reason) {
    if (api.token) api.forgetToken();
    store.set({ screen: "signin", signinReason: reason });
  }

  /** @param {number} askedAt */
  async function poll(askedAt) {
    try {
      applySnapshot(await api.call(snapshotPath), askedAt);
      store.set({ alert: "" });
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status === 401 || error.status === 403) return signIn(error.message);
      store.set({ alert: error.message });
    }
  }

  async function start() {
    let me;
    try {
      me = await api.call("me");
    } catch (caught) {
      const error = asFailure(caught);
      if (error.status === 401 || error.status === 403) return signIn(api.token ? error.message : "");
      store.set({ alert: cannotStart(error.message), screen: "signin" });
      return;
    }
    if (!me.screens.includes(screen)) return signIn(pgettext("display", "This link opens another screen."));
    store.set({ me, screen });
    document.title = title(me);
    new DisplayFeed({
      api,
      me,
      channel: me.channels[screen],
      events,
      poll,
      onState: (realtime) => store.set({ realtime }),
    }).start();
  }

  byId("sound").addEventListener("click", () => {
    const on = !store.get().sound && chime.unlock();
    store.set({ sound: on });
    if (on && chimeWhenTurnedOn) chime.play();
  });
  return { start, poll };
}
