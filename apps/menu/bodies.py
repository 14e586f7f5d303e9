"""The menu bodies: the spec's menu shape (section 2), defined once as serializers that both
answer and document it. The agent's read (`MenuOut`) is in the catalog's own language; the
kiosk's read (`PublicMenuOut`) in the customer's, with allergens and dietary tags. The
serializer context carries `language` (None: the catalog's own words) and `request` (for
absolute photo URLs)."""

from collections.abc import Iterable
from typing import Any, TypedDict

from django.http import HttpRequest
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request

from apps.core.body_fields import OptionalTextField
from apps.menu import photos
from apps.menu.labels import ALLERGENS, DIETARY, LANGUAGE_CODES
from apps.menu.models import Category, MenuItem, ModifierGroup, ModifierOption
from apps.menu.translations import Translatable, translated


class TranslatedText(serializers.CharField):
    """The entry's own field, or its translation into the context's `language` when it has one."""

    def get_attribute(self, instance: Translatable) -> str:
        return translated(instance, str(self.field_name), self.context.get("language"))


@extend_schema_field({"type": "string", "format": "uri", "nullable": True})
class PhotoUrl(OptionalTextField):
    """The item's photo as an absolute URL, null without one (the apps show a placeholder)."""

    def get_attribute(self, instance: MenuItem) -> str | None:
        return photos.photo_url(instance.photo.name or "", self.context.get("request"))


class OptionOut(serializers.Serializer[ModifierOption]):
    id = serializers.CharField()
    name = TranslatedText()
    price_cents = serializers.IntegerField()


class GroupOut(serializers.Serializer[ModifierGroup]):
    id = serializers.CharField()
    name = TranslatedText()
    # The spec's field name; DRF's metaclass takes declared fields off the class, so it does not
    # shadow Field.required at run time.
    required = serializers.BooleanField()  # type: ignore[assignment]
    min = serializers.IntegerField()
    max = serializers.IntegerField()
    options = OptionOut(many=True)


class ItemOut(serializers.Serializer[MenuItem]):
    id = serializers.CharField()
    name = TranslatedText()
    description = TranslatedText(allow_blank=True)
    price_cents = serializers.IntegerField()
    photo_url = PhotoUrl()
    sold_out = serializers.BooleanField()
    modifier_groups = GroupOut(many=True)


class CategoryOut(serializers.Serializer[Category]):
    id = serializers.CharField()
    name = TranslatedText()
    sort_order = serializers.IntegerField()
    menu_items = ItemOut(many=True, source="items.all")


class AgentItemOut(ItemOut):
    stock_left = serializers.SerializerMethodField(
        help_text="Units left of an item whose stock is tracked (0: sold out); null when it is not tracked."
    )

    def get_stock_left(self, item: MenuItem) -> int | None:
        return max(item.stock, 0) if item.track_stock else None


class AgentCategoryOut(CategoryOut):
    menu_items = AgentItemOut(many=True, source="items.all")


class Menu(TypedDict):
    categories: Iterable[Category]


class PublicMenu(Menu):
    locale: str
    default_locale: str


class MenuOut(serializers.Serializer[Menu]):
    """The agent's menu: the spec's shape plus `stock_left` on each item."""

    categories = AgentCategoryOut(many=True)


class PublicItemOut(ItemOut):
    allergens = serializers.ListField(
        child=serializers.ChoiceField(choices=list(ALLERGENS)),
        help_text="The EU's 14 declarable allergens (Regulation 1169/2011, Annex II) the item contains.",
    )
    dietary = serializers.ListField(child=serializers.ChoiceField(choices=list(DIETARY)))


class PublicCategoryOut(CategoryOut):
    menu_items = PublicItemOut(many=True, source="items.all")


class PublicMenuOut(serializers.Serializer[PublicMenu]):
    locale = serializers.ChoiceField(
        choices=LANGUAGE_CODES, help_text="The language asked for, where the menu has its words."
    )
    default_locale = serializers.ChoiceField(
        choices=LANGUAGE_CODES, help_text="The business's menu language: words not translated are in it."
    )
    categories = PublicCategoryOut(many=True)


def menu_body(categories: Iterable[Category], *, request: Request | HttpRequest) -> dict[str, Any]:
    """The agent's menu: the catalog's own words."""
    return MenuOut({"categories": categories}, context={"request": request, "language": None}).data


def public_menu_body(
    categories: Iterable[Category], *, language: str, default_language: str, request: Request | HttpRequest
) -> dict[str, Any]:
    context = {"request": request, "language": language}
    body: PublicMenu = {"locale": language, "default_locale": default_language, "categories": categories}
    return PublicMenuOut(body, context=context).data
