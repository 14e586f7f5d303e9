// Small progressive enhancements; every page works without them.
(function () {
  "use strict";

  // The panel's words (English msgids, context "panel", locale/en/LC_MESSAGES/djangojs.po),
  // translated when the page loads Django's JavaScript catalogue; a classic script, so not
  // static/common/gettext.js's import.
  /** @param {string} context @param {string} msgid */
  function pgettext(context, msgid) {
    var django = /** @type {{django?: {pgettext?: (context: string, msgid: string) => string}}} */ (/** @type {unknown} */ (window)).django;
    return django && django.pgettext ? django.pgettext(context, msgid) : msgid;
  }

  // Forms with data-confirm ask before they submit (unpair, delete, disable).
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm") || "")) event.preventDefault(); // the selector says it is there
    });
  });

  // The pairing code's expiry countdown (mm:ss), from the server's expires_at.
  var countdown = document.getElementById("pairing-countdown");
  if (countdown) countDown(countdown);

  /** @param {HTMLElement} countdown */
  function countDown(countdown) {
    var expiresAt = Date.parse(countdown.getAttribute("data-expires-at") || ""); // none: NaN, as before
    var tick = function () {
      var left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      countdown.textContent = left > 0 ? text : pgettext("panel", "expired");
      if (left > 0) window.setTimeout(tick, 1000);
    };
    tick();
  }

  // Copy buttons: <button data-copy="#element-id">.
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    button.addEventListener("click", function () {
      var selector = button.getAttribute("data-copy") || ""; // the selector says it is there
      var source = document.querySelector(selector);
      if (!source) throw new Error("nothing to copy: the page has no " + selector);
      var done = function () { button.textContent = pgettext("panel", "Copied"); };
      if (navigator.clipboard && window.isSecureContext) {
        var copied = source;
        navigator.clipboard.writeText((copied.textContent || "").trim()).then(done, function () { selectText(copied); });
      } else {
        selectText(source);
      }
    });
  });

  /** @param {Node} element */
  function selectText(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    if (!selection) return; // only a hidden frame has none
    selection.removeAllRanges();
    selection.addRange(range);
  }
})();
