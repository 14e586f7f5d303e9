// The kiosk's loader, the one script its page starts. The app's code (app.js and the modules it
// imports, static/common/ included) is loaded from the API server's /static/, so a kiosk hosted on
// another origin runs the code that matches its API and needs only its shell (index.html,
// config.js, this file, settings.js, kiosk.css). When the code cannot be loaded the loading
// screen says so and the page starts over after a back-off: 2, 4, 8, 16, then every 30 s.
import { staticBase } from "./settings.js";

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
    if (note) note.textContent = `The service cannot be reached. Trying again in ${left} s…`;
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
