// A line's modifiers in words, each group named once: "Extras: Cheese, Bacon; Bun: Brioche"
// (issue 23 defect 13: "Extras: Cheese, Extras: Bacon" repeated the group). Groups keep the order
// they first appear in. Pure, unit-tested (tests/js/modifier-text.test.js).

/** @param {Array<{group: string, value: string}>} modifiers */
export function modifierText(modifiers) {
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const { group, value } of modifiers || []) {
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(value);
  }
  return [...groups].map(([group, values]) => `${group}: ${values.join(", ")}`).join("; ");
}
