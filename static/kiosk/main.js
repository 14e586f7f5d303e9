// The kiosk's loader, the one script its page starts. The app's code (app.js and the modules it
// imports, static/common/ included) is loaded from the API server's /static/, so a kiosk hosted on
// another origin runs the code that matches its API and needs only its shell (index.html,
// config.js, this file, settings.js, kiosk.css). When the code cannot be loaded the loading
// screen says so and the page starts over after a back-off: 2, 4, 8, 16, then every 30 s.
import { staticBase } from "./settings.js";

// Said when the app cannot be loaded, so before the catalogues, which come from the API this says
// cannot be reached: the key's four sentences copied from locale/*/LC_MESSAGES/djangojs.po (the
// source; tests/js/kiosk-messages.test.js fails when a copy differs), in the device's language.
const gettext_noop = (/** @type {string} */ key) => key; // marks the key for makemessages
export const UNREACHABLE_KEY = gettext_noop("loading.unreachable");
/** @type {Record<string, string>} */
export const UNREACHABLE = {
  en: "The service cannot be reached. Trying again in {seconds} s…",
  es: "No se puede conectar con el servicio. Se reintentará en {seconds} s…",
  fr: "Le service est injoignable. Nouvel essai dans {seconds} s…",
  de: "Der Dienst ist nicht erreichbar. Neuer Versuch in {seconds} s…",
};
const unreachable = UNREACHABLE[(navigator.language || "en").split("-")[0].toLowerCase()] || UNREACHABLE.en;

const ATTEMPTS = "kiosk-app.load-attempts"; // failed loads in a row (this tab only)
const delaySeconds = (/** @type {number} */ attempt) => Math.min(2 ** attempt, 30);

function remember(/** @type {number | null} */ attempts) {
  try {
    if (attempts === null) window.sessionStorage.removeItem(ATTEMPTS);
    else window.sessionStorage.setItem(ATTEMPTS, String(attempts));
  } catch (storageRefused) {
    console.warn(`the kiosk cannot count its load attempts: ${storageRefused}`); // then it waits 2 s each time
  }
}

function failedBefore() {
  try {
    return Number(window.sessionStorage.getItem(ATTEMPTS)) || 0;
  } catch (storageRefused) {
    return 0; // said by remember(), which fails the same way
  }
}

/** @param {string} appUrl @param {unknown} error */
function startOverLater(appUrl, error) {
  const attempt = failedBefore() + 1;
  remember(attempt);
  let left = delaySeconds(attempt);
  console.warn(`loading the kiosk app from ${appUrl} failed (attempt ${attempt}): ${error}`);
  const note = document.querySelector("#screen-loading .note");
  const say = () => {
    if (note) note.textContent = unreachable.replace("{seconds}", String(left));
  };
  say();
  const countdown = window.setInterval(() => {
    left -= 1;
    if (left > 0) return say();
    window.clearInterval(countdown);
    window.location.reload(); // a fresh start: the browser forgets the modules that failed
  }, 1000);
}

async function load() {
  const appUrl = staticBase() + "kiosk/app.js";
  try {
    await import(appUrl);
    remember(null);
  } catch (error) {
    startOverLater(appUrl, error);
  }
}

load();
