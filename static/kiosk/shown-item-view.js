// The item the agent showed the customer (MenuItemShown), as the kiosk's large view draws it:
// the menu item in the customer's language with its option groups. Pure, unit-tested
// (tests/js/kiosk-shown-item.test.js); shown-item.js draws it.
import { menuPrice, menuView } from "./menu.js";

/**
 * The item the agent showed, as the large view draws it; null while it is not in the menu held.
 * @param {import("./menu.js").MenuBody | null} menu @param {string | null} itemId @param {string} locale @param {string | null} currency
 */
export function shownItemView(menu, itemId, locale, currency) {
  if (!menu || !itemId) return null;
  const item = menuView(menu, locale, currency)
    .flatMap((category) => category.items)
    .find((candidate) => candidate.id === itemId);
  if (!item) return null;
  const raw = menu.categories.flatMap((category) => category.menu_items).find((candidate) => candidate.id === itemId);
  const groups = ((raw && raw.modifier_groups) || []).map((group) => ({
    name: group.name,
    options: group.options.map((option) =>
      option.price_cents ? `${option.name} (+${menuPrice(option.price_cents, currency, locale)})` : option.name,
    ),
  }));
  return { ...item, groups };
}

