// Pairing, once per device: a 6-digit code from the owner panel and a name for this kiosk.
// Every refusal is said in words (words.js); resolves with the pairing result (section 2 of the spec).
import { asFailure } from "../common/report.js";
import { api } from "./api.js";
import { device } from "./device.js";
import { pairingFormProblem, pairingRefusal, suggestedName } from "./words.js";

/** Puts the suggestion in an empty name field (a name typed before is kept). @param {HTMLInputElement} input */
export function suggestName(input) {
  const suggestion = suggestedName(device.id);
  input.placeholder = suggestion;
  if (!input.value) input.value = suggestion;
}

/**
 * Sends one pairing attempt and records the outcome in the store: the result, or null and the
 * refusal in words.
 * @param {import("../common/store.js").Store<import("./state.js").KioskState>} store
 * @param {{code: string, name: string}} form what was typed
 */
export async function tryPairing(store, { code, name }) {
  const setPairing = (/** @type {object} */ change) => store.set(({ pairing }) => ({ pairing: { ...pairing, ...change } }));
  const { locale } = store.get();
  const problem = pairingFormProblem(code.trim(), name.trim(), locale);
  if (problem) {
    setPairing({ error: problem });
    return null;
  }
  setPairing({ busy: true, error: "" });
  try {
    const body = { code: code.trim(), device_id: device.id, device_name: name.trim() };
    return await api("POST", "/api/public/kiosks/pair", body, { signed: false });
  } catch (error) {
    setPairing({ error: pairingRefusal(asFailure(error), locale) });
    return null;
  } finally {
    setPairing({ busy: false });
  }
}
