// The order board: "Preparing" and "Ready" numbers of one business from GET /api/displays/board
// and the board channel (BoardChanged); a number just ready is highlighted and may chime.
import { interpolate, pgettext } from "../common/gettext.js";
import { Chime } from "../common/chime.js";
import { DisplayApi } from "../common/display-api.js";
import { displayApp } from "../common/display-app.js";
import { logFailure } from "../common/report.js";
import { announce } from "../common/ui.js";
import { applyNumber, mergeBoard } from "./numbers.js";
import { createBoardStore } from "./state.js";
import { renderBoard } from "./views.js";

const store = createBoardStore();
const chime = new Chime();
window.setInterval(() => store.set({ now: Date.now() }), 1000);

/** @param {import("./numbers.js").BoardNumber[]} ready */
function nowReady(ready) {
  if (!ready.length) return;
  if (store.get().sound) chime.play([880, 1175]);
  announce(interpolate(pgettext("display", "Ready: %(numbers)s."), { numbers: ready.map((entry) => entry.number).join(", ") }));
}

/** @param {import("./numbers.js").BoardNumber} entry */
function heard(entry) {
  const { numbers, ready } = applyNumber(store.get().numbers, entry, Date.now());
  store.set({ numbers });
  if (ready) nowReady([entry]);
}

const app = displayApp({
  api: new DisplayApi("board"),
  store,
  screen: "board",
  cannotStart: (reason) => interpolate(pgettext("display", "The order board could not start: %(reason)s"), { reason }),
  title: (me) => interpolate(pgettext("display", "Orders: %(business)s"), { business: me.business.name }),
  snapshotPath: "board",
  applySnapshot(body, askedAt) {
    const entries = [...body.preparing, ...body.ready];
    const { numbers, ready } = mergeBoard(store.get().numbers, entries, askedAt, Date.now());
    store.set({ numbers });
    nowReady(ready);
  },
  events: { BoardChanged: heard },
  chime,
});
renderBoard(store);
app.start().catch((error) => logFailure("starting the order board", error));
