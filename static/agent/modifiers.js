// The modifier dialog: a native modal <dialog> (focus stays inside it, Escape closes it) that
// enforces each group's required/min/max before the item can be added.
import { money } from "../common/format.js";
import { interpolate, pgettext } from "../common/gettext.js";
import { byId, el, showError } from "../common/ui.js";

/**
 * @typedef {{id: string, name: string, required: boolean, min: number, max: number | null, options: Array<{id: string, name: string, price_cents: number}>}} ModifierGroup
 * @typedef {{optionIds: string[], labels: Array<{group: string, value: string}>}} Chosen what ask() resolves with
 */

/** A group's rule in words. @param {ModifierGroup} group */
export function rule(group) {
  const min = group.required ? Math.max(1, group.min) : group.min;
  if (group.max === 1) return min ? pgettext("agent", "choose one") : pgettext("agent", "optional, at most one");
  if (min && group.max) {
    return min === group.max
      ? interpolate(pgettext("agent", "choose %(min)s"), { min })
      : interpolate(pgettext("agent", "choose %(min)s to %(max)s"), { min, max: group.max });
  }
  if (min) return interpolate(pgettext("agent", "choose at least %(min)s"), { min });
  return group.max ? interpolate(pgettext("agent", "optional, up to %(max)s"), { max: group.max }) : pgettext("agent", "optional");
}

export class ModifierDialog {
  constructor() {
    this.dialog = byId("modifier-dialog", HTMLDialogElement);
    /** @type {((value: Chosen | null) => void) | null} */
    this.resolve = null;
    /** @type {import("./state.js").MenuItem | null} */
    this.item = null;
    byId("modifier-cancel").addEventListener("click", () => this.close());
    this.dialog.addEventListener("close", () => this.settle(null));
    byId("modifier-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  /** @param {import("./state.js").MenuItem} item @returns {Promise<Chosen | null>} null when cancelled */
  ask(item) {
    this.item = item;
    byId("modifier-title").textContent = item.name;
    showError(byId("modifier-error"), "");
    const groups = byId("modifier-groups");
    groups.replaceChildren(
      ...item.modifier_groups.map((group) => {
        const single = group.max === 1;
        return el(
          "fieldset",
          { class: "group", "data-group-id": group.id },
          el("legend", { text: `${group.name} (${rule(group)})` }),
          ...group.options.map((option) =>
            el(
              "label",
              { class: "option" },
              el("input", {
                type: single ? "radio" : "checkbox",
                name: `group-${group.id}`,
                value: option.id,
                "data-label": option.name,
              }),
              ` ${option.name}${option.price_cents ? ` (+${money(option.price_cents)})` : ""}`,
            ),
          ),
        );
      }),
    );
    this.dialog.showModal();
    const first = this.dialog.querySelector("input");
    if (first) first.focus();
    return new Promise((resolve) => (this.resolve = resolve));
  }

  submit() {
    const checkedIn = (/** @type {ModifierGroup} */ group) =>
      /** @type {HTMLInputElement[]} */ ([...this.dialog.querySelectorAll(`input[name="group-${group.id}"]:checked`)]).map(
        (input) => ({ id: input.value, name: input.dataset.label || "" }),
      );
    if (!this.item) return; // asked for nothing: the dialog is not open
    const { optionIds, labels, problems } = checkChoices(this.item.modifier_groups, checkedIn);
    if (problems.length) {
      showError(byId("modifier-error"), problems.join(" "));
      return;
    }
    this.settle({ optionIds, labels });
    this.dialog.close();
  }

  /** @param {Chosen | null} value */
  settle(value) {
    if (!this.resolve) return;
    const resolve = this.resolve;
    this.resolve = null;
    resolve(value);
  }

  close() {
    if (this.dialog.open) this.dialog.close();
    this.settle(null);
  }
}

/**
 * The options ticked, checked against each group's rule.
 * @param {ModifierGroup[]} groups
 * @param {(group: ModifierGroup) => Array<{id: string, name: string}>} checkedIn the options ticked in a group
 */
export function checkChoices(groups, checkedIn) {
  /** @type {string[]} */
  const optionIds = [];
  /** @type {Array<{group: string, value: string}>} */
  const labels = [];
  /** @type {string[]} */
  const problems = [];
  for (const group of groups) {
    const checked = checkedIn(group);
    const min = group.required ? Math.max(1, group.min) : group.min;
    if (checked.length < min) problems.push(`${group.name}: ${rule(group)}.`);
    if (group.max && checked.length > group.max) problems.push(interpolate(pgettext("agent", "%(group)s: at most %(max)s."), { group: group.name, max: group.max }));
    checked.forEach((option) => {
      optionIds.push(option.id);
      labels.push({ group: group.name, value: option.name });
    });
  }
  return { optionIds, labels, problems };
}
