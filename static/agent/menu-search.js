// The agent's menu search (the agent finds a dish while talking): the categories whose items
// match what the agent typed, by name or description, ignoring case and accents. Pure,
// unit-tested (tests/js/agent-menu-search.test.js).

/** @param {string} text */
const folded = (text) =>
  String(text || "")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

/**
 * @template {{name: string, description?: string}} I
 * @template {{menu_items: I[]}} C
 * @param {C[] | null} categories @param {string} query
 * @returns {C[]}
 */
export function searchMenu(categories, query) {
  const wanted = folded(query).trim();
  if (!wanted) return categories || [];
  return (categories || [])
    .map((category) => ({
      ...category,
      menu_items: category.menu_items.filter((item) => folded(`${item.name} ${item.description || ""}`).includes(wanted)),
    }))
    .filter((category) => category.menu_items.length > 0);
}
