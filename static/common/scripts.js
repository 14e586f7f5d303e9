// Classic (non-module) browser libraries loaded on first use: the project's vendored copies.
const loading = {};

// One <script> per URL; resolves with window[globalName]. `what` names the file in the error.
export function loadScript(src, globalName, what = src) {
  if (window[globalName]) return Promise.resolve(window[globalName]);
  if (!loading[src]) {
    loading[src] = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = () => (window[globalName] ? resolve(window[globalName]) : reject(new Error(`${what} did not load`)));
      script.onerror = () => reject(new Error(`${what} could not be loaded`));
      document.head.append(script);
    });
    loading[src].catch(() => delete loading[src]);
  }
  return loading[src];
}
