// The Kiosks page's pairing code card: take the code away once a kiosk used it or it expired
// (the server says which, at the card's data-state-url). A file, not inline, for the panel's CSP.
(function () {
  // The panel's words (English msgids, context "panel", locale/en/LC_MESSAGES/djangojs.po),
  // translated when the page loads Django's JavaScript catalogue; a classic script, so not
  // static/common/gettext.js's import.
  /** @param {string} context @param {string} msgid */
  function pgettext(context, msgid) {
    var django = /** @type {{django?: {pgettext?: (context: string, msgid: string) => string}}} */ (/** @type {unknown} */ (window)).django;
    return django && django.pgettext ? django.pgettext(context, msgid) : msgid;
  }
  var found = document.getElementById("pairing-card");
  if (!found) return;
  var card = found;
  var named = card.getAttribute("data-state-url");
  if (!named) throw new Error("the pairing card names no data-state-url");
  var stateUrl = named;
  var timer = window.setInterval(function () {
  // The panel's words (English msgids, context "panel", locale/en/LC_MESSAGES/djangojs.po),
  // translated when the page loads Django's JavaScript catalogue; a classic script, so not
  // static/common/gettext.js's import.
  /** @param {string} context @param {string} msgid */
  function pgettext(context, msgid) {
    var django = /** @type {{django?: {pgettext?: (context: string, msgid: string) => string}}} */ (/** @type {unknown} */ (window)).django;
    return django && django.pgettext ? django.pgettext(context, msgid) : msgid;
  }
    fetch(stateUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (body) {
        if (!body || body.state === "unused") return;
        window.clearInterval(timer);
        var note = document.createElement("p");
        note.id = "pairing-done";
        note.textContent = body.state === "used"
          ? body.kiosk
            ? pgettext("panel", "The pairing code was used by %(kiosk)s. Reload to see the kiosk in the list.").replace("%(kiosk)s", body.kiosk)
            : pgettext("panel", "The pairing code was used. Reload to see the kiosk in the list.")
          : pgettext("panel", "The pairing code expired. Generate a new one.");
        card.replaceChildren(note);
      })
      .catch(function (error) { console.warn("pairing code state:", error); });
  }, 3000);
})();
