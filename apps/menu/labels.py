"""What a menu item can say about itself beyond name and price: the 14 allergens EU law
(Regulation 1169/2011, Annex II) makes restaurants declare, dietary tags, and the languages a
menu is written in. Codes are what the APIs carry; labels are what the panel shows."""

ALLERGENS = {
    "gluten": "Cereals containing gluten",
    "crustaceans": "Crustaceans",
    "eggs": "Eggs",
    "fish": "Fish",
    "peanuts": "Peanuts",
    "soybeans": "Soybeans",
    "milk": "Milk",
    "nuts": "Tree nuts",
    "celery": "Celery",
    "mustard": "Mustard",
    "sesame": "Sesame seeds",
    "sulphites": "Sulphur dioxide and sulphites",
    "lupin": "Lupin",
    "molluscs": "Molluscs",
}

DIETARY = {
    "vegetarian": "Vegetarian",
    "vegan": "Vegan",
    "gluten_free": "Gluten free",
    "halal": "Halal",
    "kosher": "Kosher",
}

# The kiosk app's languages: a catalog is written in one of them and translated into the others.
LANGUAGES = {"en": "English", "es": "Español", "fr": "Français", "de": "Deutsch"}
LANGUAGE_CODES = list(LANGUAGES)  # the API's choice of menu languages (one enum in the schema)
