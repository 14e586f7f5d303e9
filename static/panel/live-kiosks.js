// Live kiosk status on the dashboard: the owner's presence channel on the Pusher-protocol
// server. The table is server-rendered; this only updates it, and says so when it cannot.
(function () {
  "use strict";
  var configElement = document.getElementById("live-status-config");
  var stateLabel = document.getElementById("live-state");
  if (!configElement || !window.panelLive) return;
  var config = JSON.parse(configElement.textContent);

  function setState(state, text) {
    stateLabel.setAttribute("data-state", state);
    stateLabel.textContent = text;
  }

  function row(kioskId) {
    return document.querySelector('#live-kiosks tr[data-kiosk-id="' + String(kioskId) + '"]');
  }

  function show(kioskId, online, lastSeen) {
    var tr = row(kioskId);
    if (!tr) return;
    var cell = tr.querySelector(".kiosk-status");
    cell.setAttribute("data-online", online ? "true" : "false");
    cell.querySelector(".dot").className = online ? "dot online" : "dot";
    cell.querySelector(".label").textContent = online ? "online" : "offline";
    if (lastSeen) tr.querySelector(".kiosk-seen").textContent = String(lastSeen).replace("T", " ").replace("Z", "");
  }

  var pusher;
  try {
    pusher = window.panelLive.connect(config);
  } catch (error) {
    setState("unavailable", "Live status unavailable; showing status as of page load");
    return;
  }

  // pusher-js starts connecting inside its constructor, so read the state once, then follow it.
  function follow(state) {
    if (state === "connected") setState("connected", "Live");
    else if (state === "connecting" || state === "initialized") setState("connecting", "Connecting to live status…");
    else setState("unavailable", "Live status unavailable; showing status as of page load");
  }
  follow(pusher.connection.state);
  pusher.connection.bind("state_change", function (states) {
    follow(states.current);
  });

  // Presence member ids say what the member is: "kiosk.12" (a kiosk), "user.3" (a panel user).
  function kioskIdOf(member) {
    var id = String(member.id);
    return id.indexOf("kiosk.") === 0 ? id.slice(6) : null;
  }

  var channel = pusher.subscribe(config.channel);
  channel.bind("pusher:subscription_succeeded", function (members) {
    stateLabel.setAttribute("data-subscribed", "true");
    members.each(function (member) {
      if (kioskIdOf(member)) show(kioskIdOf(member), true);
    });
  });
  channel.bind("pusher:subscription_error", function () {
    setState("unavailable", "Live status unavailable; showing status as of page load");
  });
  channel.bind("pusher:member_added", function (member) {
    if (kioskIdOf(member)) show(kioskIdOf(member), true);
  });
  channel.bind("pusher:member_removed", function (member) {
    if (kioskIdOf(member)) show(kioskIdOf(member), false);
  });
  channel.bind("KioskStatusChanged", function (data) {
    var kiosk = data.kiosk || {};
    var id = data.kiosk_id || data.id || kiosk.id;
    var online = typeof data.online === "boolean" ? data.online : data.status === "online";
    show(id, online, data.changed_at || data.last_seen_at);
  });
})();
