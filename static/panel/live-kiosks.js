// Live kiosk status on the dashboard: the owner's presence channel on the Pusher-protocol
// server. The table is server-rendered; this only updates it, and says so when it cannot.
import { pgettext } from "../common/gettext.js";

(function () {
  "use strict";
  var configElement = document.getElementById("live-status-config");
  var label = document.getElementById("live-state");
  var live = window.panelLive;
  // The dashboard renders the config and the label together, only when there is a live link.
  if (!configElement || !label || !live) return;
  var stateLabel = label;
  /** @type {PanelLiveConfig} */
  var config = JSON.parse(configElement.textContent || "");

  /** @param {string} state @param {string} text */
  function setState(state, text) {
    stateLabel.setAttribute("data-state", state);
    stateLabel.textContent = text;
  }

  /** @param {string} kioskId */
  function row(kioskId) {
    return document.querySelector('#live-kiosks tr[data-kiosk-id="' + String(kioskId) + '"]');
  }

  /** A part of a kiosk's row, which the server renders with each. @param {Element} root @param {string} selector */
  function part(root, selector) {
    var node = root.querySelector(selector);
    if (!node) throw new Error("a kiosk row has no " + selector);
    return node;
  }

  /** @param {string} kioskId @param {boolean} online @param {string} [lastSeen] ISO 8601 */
  function show(kioskId, online, lastSeen) {
    var tr = row(kioskId);
    if (!tr) return;
    var cell = part(tr, ".kiosk-status");
    cell.setAttribute("data-online", online ? "true" : "false");
    part(cell, ".dot").className = online ? "dot online" : "dot";
    part(cell, ".label").textContent = online ? "online" : "offline";
    if (lastSeen) part(tr, ".kiosk-seen").textContent = String(lastSeen).replace("T", " ").replace("Z", "");
  }

  var pusher;
  try {
    pusher = live.connect(config);
  } catch (error) {
    setState("unavailable", pgettext("panel", "Live status unavailable; showing status as of page load"));
    return;
  }

  // pusher-js starts connecting inside its constructor, so read the state once, then follow it.
  /** @param {string} state pusher-js's connection state */
  function follow(state) {
    if (state === "connected") setState("connected", pgettext("panel", "Live"));
    else if (state === "connecting" || state === "initialized") setState("connecting", pgettext("panel", "Connecting to live status…"));
    else setState("unavailable", pgettext("panel", "Live status unavailable; showing status as of page load"));
  }
  follow(pusher.connection.state);
  pusher.connection.bind("state_change", function (states) {
    follow(states.current);
  });

  // Presence member ids say what the member is: "kiosk.12" (a kiosk), "user.3" (a panel user).
  /** @param {{id: string | number}} member */
  function kioskIdOf(member) {
    var id = String(member.id);
    return id.indexOf("kiosk.") === 0 ? id.slice(6) : null;
  }

  var channel = pusher.subscribe(config.channel);
  channel.bind("pusher:subscription_succeeded", function (members) {
    stateLabel.setAttribute("data-subscribed", "true");
    members.each(function (/** @type {{id: string | number}} */ member) {
      var id = kioskIdOf(member);
      if (id) show(id, true);
    });
  });
  channel.bind("pusher:subscription_error", function () {
    setState("unavailable", pgettext("panel", "Live status unavailable; showing status as of page load"));
  });
  channel.bind("pusher:member_added", function (member) {
    var id = kioskIdOf(member);
    if (id) show(id, true);
  });
  channel.bind("pusher:member_removed", function (member) {
    var id = kioskIdOf(member);
    if (id) show(id, false);
  });
  channel.bind("KioskStatusChanged", function (data) {
    var kiosk = data.kiosk || {};
    var id = data.kiosk_id || data.id || kiosk.id;
    var online = typeof data.online === "boolean" ? data.online : data.status === "online";
    show(id, online, data.changed_at || data.last_seen_at);
  });
})();
