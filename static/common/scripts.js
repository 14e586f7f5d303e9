// Classic (non-module) browser libraries loaded on first use: the project's vendored copies.
/** @type {Record<string, Promise<unknown>>} */
const loading = {};

/**
 * One <script> per URL; resolves with window[globalName]. `what` names the file in the error.
 * @template {"Pusher" | "AgoraRTC" | "Stripe"} K
 * @param {string} src
 * @param {K} globalName
 * @param {string} [what]
 * @returns {Promise<NonNullable<Window[K]>>}
 */
export function loadScript(src, globalName, what = src) {
  const loaded = window[globalName];
  if (loaded) return Promise.resolve(loaded);
  if (!loading[src]) {
    loading[src] = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = () => {
        const global = window[globalName];
        return global ? resolve(global) : reject(new Error(`${what} did not load`));
      };
      script.onerror = () => reject(new Error(`${what} could not be loaded`));
      document.head.append(script);
    });
    loading[src].catch(() => delete loading[src]);
  }
  return /** @type {Promise<NonNullable<Window[K]>>} the global named for this URL */ (loading[src]);
}
