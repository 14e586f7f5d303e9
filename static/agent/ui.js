// The DOM helpers: the shared ones (static/common/ui.js) and the dashboard's own.
export { $, $$, announce, byId, el, money, showError } from "../common/ui.js";

export function duration(seconds) {
  const minutes = Math.floor(seconds / 60);
  const rest = String(seconds % 60).padStart(2, "0");
  return `${minutes}:${rest}`;
}

export function clock(iso) {
  return iso ? new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
}
