// A line's modifiers in words, each group named once: "Extras: Cheese, Bacon; Bun: Brioche"
// (not "Extras: Cheese, Extras: Bacon", which repeated the group). Groups keep the order
// they first appear in. Pure, unit-tested (tests/js/modifier-text.test.js).

/** @param {Array<{group: string, value: string}>} modifiers */
export function modifierText(modifiers) {
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const { group, value } of modifiers || []) {
    const values = groups.get(group);
    if (values) values.push(value);
    else groups.set(group, [value]);
  }
  return [...groups].map(([group, values]) => `${group}: ${values.join(", ")}`).join("; ");
}
