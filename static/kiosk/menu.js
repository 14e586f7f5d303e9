// The menu as the customer sees it beside the agent (the customer looks, the agent orders): GET
// /api/public/menu in the customer's language, drawn as categories of items with photo (or a
// placeholder), price, allergens, dietary tags and sold-out state. Pure, unit-tested
// (tests/js/kiosk-menu.test.js).
import { money } from "../common/format.js";
import { t } from "./messages.js";

/**
 * @typedef {{id: string, name: string, description?: string, price_cents: number, photo_url: string | null,
 *   sold_out?: boolean, allergens?: string[], dietary?: string[], modifier_groups?: MenuModifierGroup[]}} MenuItem
 * @typedef {{name: string, options: Array<{name: string, price_cents?: number}>}} MenuModifierGroup
 * @typedef {{id: string, name: string, sort_order: number, menu_items: MenuItem[]}} MenuCategory
 * @typedef {{locale?: string, default_locale?: string, categories: MenuCategory[]}} MenuBody
 */

/**
 * A price in the order's currency (read as the session opens); the amount alone until it is known
 * (the menu read carries no currency, and a wrong symbol would be untrue).
 * @param {number} cents @param {string | null} currency @param {string} locale
 */
export const menuPrice = (cents, currency, locale) => money(cents, currency || null, locale);

/**
 * @param {MenuBody | null} menu @param {string} locale @param {string | null} currency
 */
export function menuView(menu, locale, currency) {
  return [...((menu && menu.categories) || [])]
    .sort((a, b) => a.sort_order - b.sort_order)
    .filter((category) => category.menu_items.length > 0)
    .map((category) => ({
      id: category.id,
      name: category.name,
      items: category.menu_items.map((item) => ({
        id: item.id,
        name: item.name,
        description: item.description || "",
        price: menuPrice(item.price_cents, currency, locale),
        photoUrl: item.photo_url || null,
        soldOut: Boolean(item.sold_out),
        allergens: (item.allergens || []).length
          ? t(locale, "menu.contains", { list: (item.allergens || []).map((code) => t(locale, `allergen.${code}`)).join(", ") })
          : "",
        dietary: (item.dietary || []).map((code) => t(locale, `dietary.${code}`)),
      })),
    }));
}
