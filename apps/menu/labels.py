"""What a menu item can say about itself beyond name and price: the 14 allergens EU law
(Regulation 1169/2011, Annex II) makes restaurants declare, dietary tags, and the languages a
menu is written in. Codes are what the APIs carry; labels are what the panel shows (in the English
catalogue, django.po; the kiosk says the codes' words from its own, djangojs.po)."""

from django.utils.translation import gettext_lazy as _

ALLERGENS = {
    "gluten": _("Cereals containing gluten"),
    "crustaceans": _("Crustaceans"),
    "eggs": _("Eggs"),
    "fish": _("Fish"),
    "peanuts": _("Peanuts"),
    "soybeans": _("Soybeans"),
    "milk": _("Milk"),
    "nuts": _("Tree nuts"),
    "celery": _("Celery"),
    "mustard": _("Mustard"),
    "sesame": _("Sesame seeds"),
    "sulphites": _("Sulphur dioxide and sulphites"),
    "lupin": _("Lupin"),
    "molluscs": _("Molluscs"),
}

DIETARY = {
    "vegetarian": _("Vegetarian"),
    "vegan": _("Vegan"),
    "gluten_free": _("Gluten free"),
    "halal": _("Halal"),
    "kosher": _("Kosher"),
}

# The kiosk app's languages: a catalog is written in one of them and translated into the others.
LANGUAGES = {"en": "English", "es": "Español", "fr": "Français", "de": "Deutsch"}
LANGUAGE_CODES = list(LANGUAGES)  # the API's choice of menu languages (one enum in the schema)
