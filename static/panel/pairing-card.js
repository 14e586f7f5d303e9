// The Kiosks page's pairing code card: take the code away once a kiosk used it or it expired
// (the server says which, at the card's data-state-url). A file, not inline, for the panel's CSP.
(function () {
  var found = document.getElementById("pairing-card");
  if (!found) return;
  var card = found;
  var named = card.getAttribute("data-state-url");
  if (!named) throw new Error("the pairing card names no data-state-url");
  var stateUrl = named;
  var timer = window.setInterval(function () {
    fetch(stateUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (!body || body.state === "unused") return;
        window.clearInterval(timer);
        var note = document.createElement("p");
        note.id = "pairing-done";
        note.textContent = body.state === "used"
          ? "The pairing code was used" + (body.kiosk ? " by " + body.kiosk : "") + ". Reload to see the kiosk in the list."
          : "The pairing code expired. Generate a new one.";
        card.replaceChildren(note);
      })
      .catch(function (error) { console.warn("pairing code state:", error); });
  }, 3000);
})();
