"""Demo menus for seed_demo: several categories, required and optional modifier groups, and an
item with low stock."""


def _drink_sizes() -> dict:
    return {
        "name": "Size",
        "required": True,
        "min": 1,
        "max": 1,
        "options": [
            {"name": "Small", "price_cents": 0},
            {"name": "Medium", "price_cents": 50},
            {"name": "Large", "price_cents": 100},
        ],
    }


BURGER_MENU = {
    "name": "All day",
    "categories": [
        {
            "name": "Burgers",
            "items": [
                {
                    "name": "Classic burger",
                    "description": "Beef patty, lettuce, tomato, house sauce.",
                    "price_cents": 899,
                    "photo_url": "https://example.com/menu/classic-burger.jpg",
                    "modifier_groups": [
                        {
                            "name": "Cooking",
                            "required": True,
                            "min": 1,
                            "max": 1,
                            "options": [
                                {"name": "Medium", "price_cents": 0},
                                {"name": "Well done", "price_cents": 0},
                            ],
                        },
                        {
                            "name": "Extras",
                            "required": False,
                            "min": 0,
                            "max": 3,
                            "options": [
                                {"name": "Cheese", "price_cents": 100},
                                {"name": "Bacon", "price_cents": 150},
                                {"name": "Fried egg", "price_cents": 120},
                            ],
                        },
                    ],
                },
                {
                    "name": "Truffle burger",
                    "description": "Limited batch with truffle mayo.",
                    "price_cents": 1450,
                    "track_stock": True,
                    "stock": 4,
                    "low_stock_threshold": 5,
                },
            ],
        },
        {
            "name": "Sides",
            "items": [
                {"name": "Fries", "description": "Skin-on, sea salt.", "price_cents": 349, "modifier_groups": []},
                {"name": "Onion rings", "description": "Beer batter.", "price_cents": 399},
            ],
        },
        {
            "name": "Drinks",
            "items": [
                {"name": "Cola", "price_cents": 249, "modifier_groups": [_drink_sizes()]},
                {"name": "Lemonade", "price_cents": 299, "modifier_groups": [_drink_sizes()]},
            ],
        },
    ],
}

NOODLE_MENU = {
    "name": "Noodle bar",
    "categories": [
        {
            "name": "Bowls",
            "items": [
                {
                    "name": "Tonkotsu ramen",
                    "description": "Pork broth, chashu, egg.",
                    "price_cents": 1350,
                    "modifier_groups": [
                        {
                            "name": "Noodles",
                            "required": True,
                            "min": 1,
                            "max": 1,
                            "options": [{"name": "Thin", "price_cents": 0}, {"name": "Thick", "price_cents": 0}],
                        },
                        {
                            "name": "Toppings",
                            "required": False,
                            "min": 0,
                            "max": 2,
                            "options": [
                                {"name": "Extra egg", "price_cents": 150},
                                {"name": "Corn", "price_cents": 80},
                                {"name": "Nori", "price_cents": 60},
                            ],
                        },
                    ],
                },
                {
                    "name": "Spicy miso ramen",
                    "description": "Chilli miso broth.",
                    "price_cents": 1390,
                    "track_stock": True,
                    "stock": 3,
                    "low_stock_threshold": 5,
                },
            ],
        },
        {
            "name": "Small plates",
            "items": [
                {"name": "Gyoza", "description": "Five pork dumplings.", "price_cents": 650},
                {"name": "Edamame", "description": "Sea salt.", "price_cents": 450},
            ],
        },
        {
            "name": "Drinks",
            "items": [{"name": "Green tea", "price_cents": 300, "modifier_groups": [_drink_sizes()]}],
        },
    ],
}
