// Pairing, once per device: a 6-digit code from the owner panel and a name for this kiosk.
// Every refusal is said in words; resolves with the pairing result (section 2 of the spec).
import { api } from "./api.js";
import { device } from "./device.js";
import { $, showError } from "./ui.js";

function words(error) {
  switch (error.code) {
    case "PAIRING_CODE_EXPIRED":
      return "This pairing code has expired. Ask the owner for a new code (owner panel, Kiosks).";
    case "PAIRING_CODE_ALREADY_USED":
      return "This pairing code has already been used. Ask the owner for a new code.";
    case "PAIRING_CODE_INVALID":
      return "This pairing code is not known. Check the 6 digits, or ask the owner for a new code.";
    case "DEVICE_ALREADY_PAIRED":
      return "This device is already paired to another business.";
    case "OWNER_SUSPENDED":
      return "This business account is suspended: the kiosk cannot be paired now.";
    case "VALIDATION_ERROR":
      return Object.values(error.details).flat().join(" ") || error.message;
    case "NETWORK":
      return "The service cannot be reached. Check the network, then try again.";
    default:
      if (error.status === 429) {
        const wait = error.retryAfter ? ` Wait ${error.retryAfter} seconds,` : " Wait a minute,";
        return `Too many pairing attempts.${wait} then try again.`;
      }
      return `Pairing failed: ${error.message}`;
  }
}

export function pair(reason) {
  const form = $("#pairing-form");
  const note = $("#pairing-reason");
  note.textContent = reason;
  note.hidden = !reason;
  showError($("#pairing-error"), "");
  $("#pairing-code").value = "";
  $("#pairing-code").focus();
  return new Promise((resolve) => {
    form.onsubmit = async (event) => {
      event.preventDefault();
      const code = $("#pairing-code").value.trim();
      const name = $("#pairing-name").value.trim();
      if (!/^\d{6}$/.test(code)) return showError($("#pairing-error"), "Enter the 6-digit pairing code.");
      if (!name) return showError($("#pairing-error"), "Give this kiosk a name, for example \"Front counter\".");
      const button = $("#pairing-submit");
      button.disabled = true;
      showError($("#pairing-error"), "");
      try {
        const result = await api(
          "POST",
          "/api/public/kiosks/pair",
          { code, device_id: device.id, device_name: name },
          { signed: false },
        );
        form.onsubmit = null;
        resolve(result);
      } catch (error) {
        showError($("#pairing-error"), words(error));
      } finally {
        button.disabled = false;
      }
    };
  });
}
