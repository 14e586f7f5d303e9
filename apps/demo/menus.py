"""Demo menus for seed_demo: several categories, required and optional modifier groups, an item
with low stock, Spanish, French and German translations of every name (the catalogs are written
in English), allergens, dietary tags, and a photo per item (`photo_key`: a drawing of apps/demo/photos.py,
stored by seed_demo like an owner's upload)."""

from typing import Any

# The nested catalog data apps.menu.services.catalog_import reads (it takes a plain dict of JSON).
Spec = dict[str, Any]


def es(name: str, description: str = "") -> dict[str, dict[str, str]]:
    words = {"name": name}
    if description:
        words["description"] = description
    return {"es": words}


def _group(name: str, spanish: str, required: bool, most: int, *options: tuple[str, str, int]) -> Spec:
    """A modifier group: a required one asks for at least one option."""
    return {
        "name": name,
        "translations": es(spanish),
        "required": required,
        "min": 1 if required else 0,
        "max": most,
        "options": [{"name": n, "translations": es(s), "price_cents": cents} for n, s, cents in options],
    }


def _drink_sizes() -> Spec:
    return {
        "name": "Size",
        "translations": es("Tamaño"),
        "required": True,
        "min": 1,
        "max": 1,
        "options": [
            {"name": "Small", "translations": es("Pequeño"), "price_cents": 0},
            {
                "name": "Medium",
                "translations": {**es("Mediano"), "fr": {"name": "Moyen"}, "de": {"name": "Mittel"}},
                "price_cents": 50,
            },
            {"name": "Large", "translations": es("Grande"), "price_cents": 100},
        ],
    }


def _drink(name: str, spanish: str, price_cents: int, photo_key: str) -> Spec:
    """A drink of the menu: vegan, in three sizes."""
    return {
        "name": name,
        "translations": es(spanish),
        "price_cents": price_cents,
        "dietary": ["vegetarian", "vegan", "gluten_free"],
        "photo_key": photo_key,
        "modifier_groups": [_drink_sizes()],
    }


def _limited_batch(stock: int) -> Spec:
    """A limited item: its stock is counted and already under the low-stock warning (5)."""
    return {"track_stock": True, "stock": stock, "low_stock_threshold": 5}


BURGER_MENU = {
    "name": "All day",
    "language": "en",
    "categories": [
        {
            "name": "Burgers",
            "translations": es("Hamburguesas"),
            "items": [
                {
                    "name": "Classic burger",
                    "description": "Beef patty, lettuce, tomato, house sauce.",
                    "translations": es("Hamburguesa clásica", "Carne de ternera, lechuga, tomate y salsa de la casa."),
                    "price_cents": 899,
                    "allergens": ["gluten", "eggs", "mustard", "sesame"],
                    "dietary": [],
                    "photo_key": "classic-burger",
                    "modifier_groups": [
                        _group(
                            "Cooking",
                            "Punto de la carne",
                            True,
                            1,
                            ("Medium", "Al punto", 0),
                            ("Well done", "Muy hecha", 0),
                        ),
                        _group(
                            "Extras",
                            "Extras",
                            False,
                            3,
                            ("Cheese", "Queso", 100),
                            ("Bacon", "Beicon", 150),
                            ("Fried egg", "Huevo frito", 120),
                        ),
                    ],
                },
                {
                    "name": "Truffle burger",
                    "description": "Limited batch with truffle mayo.",
                    "translations": es("Hamburguesa trufada", "Edición limitada con mayonesa de trufa."),
                    "allergens": ["gluten", "eggs", "milk", "sesame"],
                    "photo_key": "truffle-burger",
                    "price_cents": 1450,
                    **_limited_batch(4),
                },
            ],
        },
        {
            "name": "Sides",
            "translations": es("Acompañamientos"),
            "items": [
                {
                    "name": "Fries",
                    "description": "Skin-on, sea salt.",
                    "translations": es("Patatas fritas", "Con piel y sal marina."),
                    "price_cents": 349,
                    "dietary": ["vegetarian", "vegan", "gluten_free"],
                    "photo_key": "fries",
                    "modifier_groups": [],
                },
                {
                    "name": "Onion rings",
                    "description": "Beer batter.",
                    "translations": es("Aros de cebolla", "Rebozado de cerveza."),
                    "price_cents": 399,
                    "allergens": ["gluten"],
                    "dietary": ["vegetarian"],
                    "photo_key": "onion-rings",
                },
            ],
        },
        {
            "name": "Drinks",
            "translations": es("Bebidas"),
            "items": [
                _drink("Cola", "Refresco de cola", 249, "cola"),
                _drink("Lemonade", "Limonada", 299, "lemonade"),
            ],
        },
    ],
}

NOODLE_MENU = {
    "name": "Noodle bar",
    "language": "en",
    "categories": [
        {
            "name": "Bowls",
            "translations": es("Cuencos"),
            "items": [
                {
                    "name": "Tonkotsu ramen",
                    "description": "Pork broth, chashu, egg.",
                    "translations": es("Ramen tonkotsu", "Caldo de cerdo, chashu y huevo."),
                    "allergens": ["gluten", "eggs", "soybeans", "sesame"],
                    "photo_key": "tonkotsu-ramen",
                    "price_cents": 1350,
                    "modifier_groups": [
                        _group("Noodles", "Fideos", True, 1, ("Thin", "Finos", 0), ("Thick", "Gruesos", 0)),
                        _group(
                            "Toppings",
                            "Ingredientes extra",
                            False,
                            2,
                            ("Extra egg", "Huevo extra", 150),
                            ("Corn", "Maíz", 80),
                            ("Nori", "Alga nori", 60),
                        ),
                    ],
                },
                {
                    "name": "Spicy miso ramen",
                    "description": "Chilli miso broth.",
                    "translations": es("Ramen de miso picante", "Caldo de miso con guindilla."),
                    "allergens": ["gluten", "soybeans", "sesame"],
                    "photo_key": "spicy-miso-ramen",
                    "price_cents": 1390,
                    **_limited_batch(3),
                },
            ],
        },
        {
            "name": "Small plates",
            "translations": es("Para picar"),
            "items": [
                {
                    "name": "Gyoza",
                    "description": "Five pork dumplings.",
                    "translations": es("Gyoza", "Cinco empanadillas de cerdo."),
                    "price_cents": 650,
                    "allergens": ["gluten", "soybeans", "sesame"],
                    "photo_key": "gyoza",
                },
                {
                    "name": "Edamame",
                    "description": "Sea salt.",
                    "translations": es("Edamame", "Con sal marina."),
                    "price_cents": 450,
                    "allergens": ["soybeans"],
                    "dietary": ["vegetarian", "vegan", "gluten_free"],
                    "photo_key": "edamame",
                },
            ],
        },
        {
            "name": "Drinks",
            "translations": es("Bebidas"),
            "items": [
                _drink("Green tea", "Té verde", 300, "green-tea"),
            ],
        },
    ],
}


DEMO_MENUS: dict[str, Spec] = {"Burger Barn": BURGER_MENU, "Noodle Bar": NOODLE_MENU}  # by demo business name


# French and German words, by the English ones: the demo shows every kiosk language.
FR_DE = {
    "Burgers": ("Burgers", "Burger"),
    "Classic burger": ("Burger classique", "Klassischer Burger"),
    "Beef patty, lettuce, tomato, house sauce.": (
        "Steak de bœuf, salade, tomate, sauce maison.",
        "Rindfleisch-Patty, Salat, Tomate, Haussoße.",
    ),
    "Cooking": ("Cuisson", "Garstufe"),
    "Medium": ("À point", "Medium"),
    "Well done": ("Bien cuit", "Durchgebraten"),
    "Extras": ("Suppléments", "Extras"),
    "Cheese": ("Fromage", "Käse"),
    "Bacon": ("Bacon", "Speck"),
    "Fried egg": ("Œuf au plat", "Spiegelei"),
    "Truffle burger": ("Burger à la truffe", "Trüffelburger"),
    "Limited batch with truffle mayo.": ("Série limitée, mayonnaise à la truffe.", "Limitiert, mit Trüffelmayo."),
    "Sides": ("Accompagnements", "Beilagen"),
    "Fries": ("Frites", "Pommes frites"),
    "Skin-on, sea salt.": ("Avec la peau, sel de mer.", "Mit Schale, Meersalz."),
    "Onion rings": ("Rondelles d'oignon", "Zwiebelringe"),
    "Beer batter.": ("Pâte à la bière.", "Im Bierteig."),
    "Drinks": ("Boissons", "Getränke"),
    "Cola": ("Cola", "Cola"),
    "Lemonade": ("Limonade", "Limonade"),
    "Size": ("Taille", "Größe"),
    "Small": ("Petit", "Klein"),
    "Large": ("Grand", "Groß"),
    "Bowls": ("Bols", "Schüsseln"),
    "Tonkotsu ramen": ("Ramen tonkotsu", "Tonkotsu-Ramen"),
    "Pork broth, chashu, egg.": ("Bouillon de porc, chashu, œuf.", "Schweinebrühe, Chashu, Ei."),
    "Noodles": ("Nouilles", "Nudeln"),
    "Thin": ("Fines", "Dünn"),
    "Thick": ("Épaisses", "Dick"),
    "Toppings": ("Garnitures", "Toppings"),
    "Extra egg": ("Œuf en plus", "Extra Ei"),
    "Corn": ("Maïs", "Mais"),
    "Nori": ("Nori", "Nori"),
    "Spicy miso ramen": ("Ramen miso épicé", "Scharfe Miso-Ramen"),
    "Chilli miso broth.": ("Bouillon miso pimenté.", "Miso-Brühe mit Chili."),
    "Small plates": ("Petites assiettes", "Kleine Teller"),
    "Gyoza": ("Gyoza", "Gyoza"),
    "Five pork dumplings.": ("Cinq raviolis au porc.", "Fünf Teigtaschen mit Schwein."),
    "Edamame": ("Edamame", "Edamame"),
    "Sea salt.": ("Sel de mer.", "Meersalz."),
    "Green tea": ("Thé vert", "Grüner Tee"),
}


def _add_french_and_german(entry: Spec) -> None:
    for field in ("name", "description"):
        words = FR_DE.get(entry.get(field, ""))
        if words:
            translations = entry.setdefault("translations", {})
            for language, text in zip(("fr", "de"), words, strict=True):
                translations.setdefault(language, {}).setdefault(field, text)  # words set above win
    for key in ("categories", "items", "modifier_groups", "options"):
        for child in entry.get(key, []):
            _add_french_and_german(child)


for _menu in (BURGER_MENU, NOODLE_MENU):
    _add_french_and_german(_menu)
