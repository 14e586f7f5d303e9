// The order board: "Preparing" and "Ready" numbers of one business from GET /api/displays/board
// and the board channel (BoardChanged); a number just ready is highlighted and may chime.
import { Chime } from "../common/chime.js";
import { DisplayApi } from "../common/display-api.js";
import { DisplayFeed } from "../common/display-feed.js";
import { logFailure } from "../common/report.js";
import { announce, byId } from "../common/ui.js";
import { applyNumber, mergeBoard } from "./numbers.js";
import { createBoardStore } from "./state.js";
import { renderBoard } from "./views.js";

const api = new DisplayApi("board");
const store = createBoardStore();
const chime = new Chime();
window.setInterval(() => store.set({ now: Date.now() }), 1000);

/** @param {import("./numbers.js").BoardNumber[]} ready */
function nowReady(ready) {
  if (!ready.length) return;
  if (store.get().sound) chime.play([880, 1175]);
  announce(`Ready: ${ready.map((entry) => entry.number).join(", ")}.`);
}

/** @param {import("./numbers.js").BoardNumber} entry */
function heard(entry) {
  const { numbers, ready } = applyNumber(store.get().numbers, entry, Date.now());
  store.set({ numbers });
  if (ready) nowReady([entry]);
}

/** @param {number} askedAt */
async function poll(askedAt) {
  try {
    const body = await api.call("board");
    const { numbers, ready } = mergeBoard(store.get().numbers, [...body.preparing, ...body.ready], askedAt, Date.now());
    store.set({ numbers, alert: "" });
    nowReady(ready);
  } catch (error) {
    if (error.status === 401 || error.status === 403) return signIn(error.message);
    store.set({ alert: error.message });
  }
}

/** @param {string} reason */
function signIn(reason) {
  if (api.token) api.forgetToken();
  store.set({ screen: "signin", signinReason: reason });
}

async function boot() {
  let me;
  try {
    me = await api.call("me");
  } catch (error) {
    if (error.status === 401 || error.status === 403) return signIn(api.token ? error.message : "");
    store.set({ alert: `The order board could not start: ${error.message}`, screen: "signin" });
    return;
  }
  if (!me.screens.includes("board")) return signIn("This link opens another screen.");
  store.set({ me, screen: "board" });
  document.title = `Orders: ${me.business.name}`;
  new DisplayFeed({
    api,
    me,
    channel: me.channels.board,
    events: { BoardChanged: heard },
    poll,
    onState: (realtime) => store.set({ realtime }),
  }).start();
}

byId("sound").addEventListener("click", () => {
  const on = !store.get().sound && chime.unlock();
  store.set({ sound: on });
});
renderBoard(store);
boot().catch((error) => logFailure("starting the order board", error));
