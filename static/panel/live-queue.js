// The Queue page, live (the owner watches the line without reloading). The board is server-rendered (templates/panel/
// _queue_board.html); this reloads it from /panel/queue/board when the owner's channel says the
// line moved (QueueBoardChanged), at most once a second, and every 5 s when there is no live link.
// Between reloads the waits and times in session tick here.
import { pgettext } from "../common/gettext.js";

(function () {
  "use strict";
  var found = document.getElementById("queue-board");
  var label = document.getElementById("live-state");
  if (!found || !label) return; // the Queue page renders both
  var board = found;
  var stateLabel = label;
  var named = board.getAttribute("data-board-url");
  if (!named) throw new Error("the queue board names no data-board-url");
  var boardUrl = named;
  var configElement = document.getElementById("live-status-config");
  var POLL_MS = 5000;
  var MIN_GAP_MS = 1000;
  /** @type {number | null} */
  var pollTimer = null;
  var loading = false;
  var again = false;
  var lastLoad = 0;

  /** @param {string} state @param {string} text */
  function setState(state, text) {
    stateLabel.setAttribute("data-state", state);
    stateLabel.textContent = text;
  }

  // One reload at a time; a change heard meanwhile asks for one more after it.
  function reload() {
    if (loading) {
      again = true;
      return;
    }
    var wait = lastLoad + MIN_GAP_MS - Date.now();
    if (wait > 0) {
      loading = true;
      window.setTimeout(function () {
        loading = false;
        reload();
      }, wait);
      return;
    }
    loading = true;
    lastLoad = Date.now();
    fetch(boardUrl, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) throw new Error("the board answered " + response.status);
        return response.text();
      })
      .then(function (html) {
        board.innerHTML = html; // the server's own template part: nothing from elsewhere
        board.setAttribute("data-loaded", String(lastLoad));
      })
      .catch(function () {
        setState("unavailable", pgettext("panel", "The queue could not be refreshed; trying again"));
      })
      .finally(function () {
        loading = false;
        if (again) {
          again = false;
          reload();
        }
      });
  }

  /** @param {boolean} on */
  function poll(on) {
    if (on && !pollTimer) pollTimer = window.setInterval(reload, POLL_MS);
    if (!on && pollTimer) {
      window.clearInterval(pollTimer);
      pollTimer = null;
    }
  }

  window.setInterval(function () {
    var cells = board.querySelectorAll(".ticking");
    for (var i = 0; i < cells.length; i += 1) {
      var seconds = Number(cells[i].getAttribute("data-seconds")) + 1;
      cells[i].setAttribute("data-seconds", String(seconds));
      cells[i].textContent = seconds + " s";
    }
  }, 1000);

  var live = window.panelLive;
  if (!configElement || !live) {
    poll(true);
    return;
  }
  /** @type {PanelLiveConfig} */
  var config = JSON.parse(configElement.textContent || "");
  var pusher;
  try {
    pusher = live.connect(config);
  } catch (error) {
    setState("unavailable", pgettext("panel", "Live updates unavailable; refreshing every 5 seconds"));
    poll(true);
    return;
  }
  setState("connecting", pgettext("panel", "Connecting to live updates…"));
  var channel = pusher.subscribe(config.channel);
  channel.bind("pusher:subscription_succeeded", function () {
    setState("connected", pgettext("panel", "Live"));
    poll(false);
    reload(); // anything that moved before the link was up
  });
  channel.bind("pusher:subscription_error", function () {
    setState("unavailable", pgettext("panel", "Live updates unavailable; refreshing every 5 seconds"));
    poll(true);
  });
  pusher.connection.bind("state_change", function (states) {
    if (states.current === "connected") return;
    setState("unavailable", pgettext("panel", "Live updates unavailable; refreshing every 5 seconds"));
    poll(true);
  });
  channel.bind("QueueBoardChanged", reload);
})();
