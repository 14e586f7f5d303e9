"""Demo menus for seed_demo: several categories, required and optional modifier groups, an item
with low stock, Spanish, French and German translations of every name (the catalogs are written
in English), allergens, dietary tags, and a photo per item (a drawing of apps/demo/photos.py named
like the item, stored by seed_demo like an owner's upload)."""

from typing import Any

# The nested catalog data apps.menu.services.catalog_import reads (it takes a plain dict of JSON).
Spec = dict[str, Any]
Option = tuple[str, int]  # a modifier option: its name and its price in cents

VEGAN = ["vegetarian", "vegan", "gluten_free"]
# A drink's "Medium" size is not the burger's "Medium" cooking: its own words.
MEDIUM_SIZE = {"es": {"name": "Mediano"}, "fr": {"name": "Moyen"}, "de": {"name": "Mittel"}}


def _group(name: str, required: bool, most: int, *options: Option) -> Spec:
    """A modifier group: a required one asks for at least one option."""
    return {
        "name": name,
        "required": required,
        "min": 1 if required else 0,
        "max": most,
        "options": [{"name": option, "price_cents": cents} for option, cents in options],
    }


def _item(name: str, description: str, price_cents: int, **fields: Any) -> Spec:
    """A menu item (`fields`: allergens, dietary, modifier_groups, stock) with its photo: the
    drawing keyed by its name in lower case, words joined by hyphens."""
    return {"name": name, "description": description, "price_cents": price_cents, "photo_key": _key(name), **fields}


def _key(name: str) -> str:
    return "-".join(name.lower().split())


def _limited_batch(stock: int) -> Spec:
    """A limited item: its stock is counted and already under the low-stock warning (5)."""
    return {"track_stock": True, "stock": stock, "low_stock_threshold": 5}


def _drink(name: str, price_cents: int) -> Spec:
    """A drink of the menu: vegan, in three sizes."""
    sizes = _group("Size", True, 1, ("Small", 0), ("Medium", 50), ("Large", 100))
    sizes["options"][1]["translations"] = MEDIUM_SIZE
    return _item(name, "", price_cents, dietary=VEGAN, modifier_groups=[sizes])


def _menu(name: str, categories: dict[str, list[Spec]]) -> Spec:
    return {
        "name": name,
        "language": "en",
        "categories": [{"name": category, "items": items} for category, items in categories.items()],
    }


BURGER_MENU = _menu(
    "All day",
    {
        "Burgers": [
            _item(
                "Classic burger",
                "Beef patty, lettuce, tomato, house sauce.",
                899,
                allergens=["gluten", "eggs", "mustard", "sesame"],
                modifier_groups=[
                    _group("Cooking", True, 1, ("Medium", 0), ("Well done", 0)),
                    _group("Extras", False, 3, ("Cheese", 100), ("Bacon", 150), ("Fried egg", 120)),
                ],
            ),
            _item(
                "Truffle burger",
                "Limited batch with truffle mayo.",
                1450,
                allergens=["gluten", "eggs", "milk", "sesame"],
                **_limited_batch(4),
            ),
        ],
        "Sides": [
            _item("Fries", "Skin-on, sea salt.", 349, dietary=VEGAN),
            _item("Onion rings", "Beer batter.", 399, allergens=["gluten"], dietary=["vegetarian"]),
        ],
        "Drinks": [_drink("Cola", 249), _drink("Lemonade", 299)],
    },
)

NOODLE_MENU = _menu(
    "Noodle bar",
    {
        "Bowls": [
            _item(
                "Tonkotsu ramen",
                "Pork broth, chashu, egg.",
                1350,
                allergens=["gluten", "eggs", "soybeans", "sesame"],
                modifier_groups=[
                    _group("Noodles", True, 1, ("Thin", 0), ("Thick", 0)),
                    _group("Toppings", False, 2, ("Extra egg", 150), ("Corn", 80), ("Nori", 60)),
                ],
            ),
            _item(
                "Spicy miso ramen",
                "Chilli miso broth.",
                1390,
                allergens=["gluten", "soybeans", "sesame"],
                **_limited_batch(3),
            ),
        ],
        "Small plates": [
            _item("Gyoza", "Five pork dumplings.", 650, allergens=["gluten", "soybeans", "sesame"]),
            _item("Edamame", "Sea salt.", 450, allergens=["soybeans"], dietary=VEGAN),
        ],
        "Drinks": [_drink("Green tea", 300)],
    },
)

DEMO_MENUS: dict[str, Spec] = {"Burger Barn": BURGER_MENU, "Noodle Bar": NOODLE_MENU}  # by demo business name


# Every name and description of the menus in Spanish, French and German, by the English words: the
# demo shows every kiosk language.
NAMES = {
    "Burgers": ("Hamburguesas", "Burgers", "Burger"),
    "Classic burger": ("Hamburguesa clásica", "Burger classique", "Klassischer Burger"),
    "Cooking": ("Punto de la carne", "Cuisson", "Garstufe"),
    "Medium": ("Al punto", "À point", "Medium"),
    "Well done": ("Muy hecha", "Bien cuit", "Durchgebraten"),
    "Extras": ("Extras", "Suppléments", "Extras"),
    "Cheese": ("Queso", "Fromage", "Käse"),
    "Bacon": ("Beicon", "Bacon", "Speck"),
    "Fried egg": ("Huevo frito", "Œuf au plat", "Spiegelei"),
    "Truffle burger": ("Hamburguesa trufada", "Burger à la truffe", "Trüffelburger"),
    "Sides": ("Acompañamientos", "Accompagnements", "Beilagen"),
    "Fries": ("Patatas fritas", "Frites", "Pommes frites"),
    "Onion rings": ("Aros de cebolla", "Rondelles d'oignon", "Zwiebelringe"),
    "Drinks": ("Bebidas", "Boissons", "Getränke"),
    "Cola": ("Refresco de cola", "Cola", "Cola"),
    "Size": ("Tamaño", "Taille", "Größe"),
    "Small": ("Pequeño", "Petit", "Klein"),
    "Large": ("Grande", "Grand", "Groß"),
    "Lemonade": ("Limonada", "Limonade", "Limonade"),
    "Bowls": ("Cuencos", "Bols", "Schüsseln"),
    "Tonkotsu ramen": ("Ramen tonkotsu", "Ramen tonkotsu", "Tonkotsu-Ramen"),
    "Noodles": ("Fideos", "Nouilles", "Nudeln"),
    "Thin": ("Finos", "Fines", "Dünn"),
    "Thick": ("Gruesos", "Épaisses", "Dick"),
    "Toppings": ("Ingredientes extra", "Garnitures", "Toppings"),
    "Extra egg": ("Huevo extra", "Œuf en plus", "Extra Ei"),
    "Corn": ("Maíz", "Maïs", "Mais"),
    "Nori": ("Alga nori", "Nori", "Nori"),
    "Spicy miso ramen": ("Ramen de miso picante", "Ramen miso épicé", "Scharfe Miso-Ramen"),
    "Small plates": ("Para picar", "Petites assiettes", "Kleine Teller"),
    "Gyoza": ("Gyoza", "Gyoza", "Gyoza"),
    "Edamame": ("Edamame", "Edamame", "Edamame"),
    "Green tea": ("Té verde", "Thé vert", "Grüner Tee"),
}
DESCRIPTIONS = {
    "Beef patty, lettuce, tomato, house sauce.": (
        "Carne de ternera, lechuga, tomate y salsa de la casa.",
        "Steak de bœuf, salade, tomate, sauce maison.",
        "Rindfleisch-Patty, Salat, Tomate, Haussoße.",
    ),
    "Limited batch with truffle mayo.": (
        "Edición limitada con mayonesa de trufa.",
        "Série limitée, mayonnaise à la truffe.",
        "Limitiert, mit Trüffelmayo.",
    ),
    "Skin-on, sea salt.": ("Con piel y sal marina.", "Avec la peau, sel de mer.", "Mit Schale, Meersalz."),
    "Beer batter.": ("Rebozado de cerveza.", "Pâte à la bière.", "Im Bierteig."),
    "Pork broth, chashu, egg.": (
        "Caldo de cerdo, chashu y huevo.",
        "Bouillon de porc, chashu, œuf.",
        "Schweinebrühe, Chashu, Ei.",
    ),
    "Chilli miso broth.": ("Caldo de miso con guindilla.", "Bouillon miso pimenté.", "Miso-Brühe mit Chili."),
    "Five pork dumplings.": ("Cinco empanadillas de cerdo.", "Cinq raviolis au porc.", "Fünf Teigtaschen mit Schwein."),
    "Sea salt.": ("Con sal marina.", "Sel de mer.", "Meersalz."),
}


def _translate(entry: Spec) -> None:
    """Give every name and description its words (NAMES, DESCRIPTIONS), keeping words an entry sets itself."""
    for field in ("name", "description"):
        words = (NAMES if field == "name" else DESCRIPTIONS).get(entry.get(field) or "")
        if words:
            translations = entry.setdefault("translations", {})
            for language, text in zip(("es", "fr", "de"), words, strict=True):
                translations.setdefault(language, {}).setdefault(field, text)
    for key in ("categories", "items", "modifier_groups", "options"):
        for child in entry.get(key, []):
            _translate(child)


for _menu_spec in (BURGER_MENU, NOODLE_MENU):
    _translate(_menu_spec)
