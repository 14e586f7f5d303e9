"""Menu editing forms. Prices are typed in major units and stored in cents. Every form that
names something has one field per other kiosk language (`name_es`, `description_fr`, ...): the
entry's words in its catalog's language are its own fields, the others its translations."""

from decimal import Decimal
from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.http import QueryDict
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from apps.menu.labels import ALLERGENS, DIETARY, LANGUAGES
from apps.menu.models import Category, MenuItem, ModifierGroup, ModifierOption
from apps.menu.translations import TRANSLATABLE_FIELDS, translations_from


def to_cents(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def other_languages(catalog_language: str) -> list[tuple[str, str]]:
    """The kiosk languages an entry of a catalog written in `catalog_language` is translated into."""
    return [(code, label) for code, label in LANGUAGES.items() if code != catalog_language]


class PriceField(forms.DecimalField):
    def __init__(self, *, label: StrOrPromise | None = None, initial: Decimal | None = None) -> None:
        super().__init__(min_value=Decimal("0"), max_digits=9, decimal_places=2, label=label, initial=initial)


# A translated field's label: the catalogue's sentence (the msgid the catalog page's inputs say as
# well) around the language's own name, as the kiosk's language buttons say it.
TRANSLATED_LABELS = {"name": _("Name (%(label)s)"), "description": _("Description (%(label)s)")}


class TranslatedForm(forms.Form):
    """A form with `<field>_<language>` inputs for `translated_fields` in each other language."""

    translated_fields: tuple[str, ...] = ("name",)

    def __init__(
        self,
        data: QueryDict | None = None,
        files: MultiValueDict[str, UploadedFile[Any]] | None = None,
        *,
        initial: dict[str, object] | None = None,
        catalog_language: str = "en",
        entry: Category | MenuItem | ModifierGroup | ModifierOption | None = None,
    ) -> None:
        super().__init__(data, files, initial=initial)
        self.languages = other_languages(catalog_language)
        saved = (entry.translations if entry is not None else None) or {}
        for code, label in self.languages:
            for field in self.translated_fields:
                widget = forms.Textarea(attrs={"rows": 2}) if field == "description" else forms.TextInput()
                self.fields[f"{field}_{code}"] = forms.CharField(
                    label=TRANSLATED_LABELS[field] % {"label": label},
                    max_length=TRANSLATABLE_FIELDS[field],
                    required=False,
                    widget=widget,
                    initial=saved.get(code, {}).get(field, ""),
                )
        # Each language's words right after the entry's own ones.
        translated = [f"{field}_{code}" for code, _ in self.languages for field in self.translated_fields]
        own = [name for name in self.fields if name not in translated]
        last_own_word = max(own.index(field) for field in self.translated_fields)
        self.order_fields([*own[: last_own_word + 1], *translated, *own[last_own_word + 1 :]])

    def translations(self) -> dict[str, dict[str, str]]:
        words = {
            code: {field: self.cleaned_data.get(f"{field}_{code}", "") for field in self.translated_fields}
            for code, _ in self.languages
        }
        return translations_from(words)

    def model_fields(self) -> dict[str, Any]:
        """The service's keyword arguments: the entry's own fields and its translations (values
        as the form cleaned them)."""
        return {**self.own_fields(), "translations": self.translations()}

    def own_fields(self) -> dict[str, Any]:
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if not any(name == f"{field}_{code}" for field in self.translated_fields for code, _ in self.languages)
        }


class CatalogForm(forms.Form):
    name = forms.CharField(
        max_length=200,
        label=_("New catalog name"),
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Winter menu"), "aria-label": _("New catalog name")}),
    )
    language = forms.ChoiceField(
        choices=list(LANGUAGES.items()),
        initial="en",
        required=False,
        label=_("Written in"),
        help_text=_("The business's menu language: kiosks show it where a translation is missing."),
    )

    def clean_language(self) -> str:
        return self.cleaned_data["language"] or "en"


class CategoryForm(TranslatedForm):
    name = forms.CharField(
        label=_("Name"),
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": _("New category"), "aria-label": _("Category name")}),
    )
    sort_order = forms.IntegerField(label=_("Sort order"), initial=0)


class MenuItemForm(TranslatedForm):
    translated_fields = ("name", "description")

    name = forms.CharField(label=_("Name"), max_length=200)
    description = forms.CharField(label=_("Description"), widget=forms.Textarea(attrs={"rows": 2}), required=False)
    price = PriceField(
        label=_("Price"),
    )
    photo = forms.FileField(
        required=False,
        label=_("Photo"),
        help_text=_("JPEG, PNG or WebP; it is resized and stripped of its metadata."),
        widget=forms.FileInput(attrs={"accept": "image/jpeg,image/png,image/webp"}),
    )
    remove_photo = forms.BooleanField(required=False, label=_("Remove the photo"))
    allergens = forms.MultipleChoiceField(
        label=_("Allergens"),
        choices=list(ALLERGENS.items()),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The allergens the item contains (the 14 the EU makes restaurants declare)."),
    )
    dietary = forms.MultipleChoiceField(
        label=_("Dietary"), choices=list(DIETARY.items()), required=False, widget=forms.CheckboxSelectMultiple
    )
    active = forms.BooleanField(required=False, initial=True, label=_("Available"))
    sort_order = forms.IntegerField(label=_("Sort order"), initial=0)
    track_stock = forms.BooleanField(required=False, label=_("Track stock"))
    stock = forms.IntegerField(
        label=_("Stock"), min_value=0, initial=0, help_text=_("Units left, when stock is tracked.")
    )
    low_stock_threshold = forms.IntegerField(
        label=_("Low stock threshold"),
        min_value=0,
        required=False,
        help_text=_("inventory.low fires when stock falls to this."),
    )

    @classmethod
    def initial_for(cls, item: MenuItem) -> dict[str, object]:
        return {
            "name": item.name,
            "description": item.description,
            "price": from_cents(item.price_cents),
            "allergens": item.allergens,
            "dietary": item.dietary,
            "active": item.active,
            "sort_order": item.sort_order,
            "track_stock": item.track_stock,
            "stock": item.stock,
            "low_stock_threshold": item.low_stock_threshold,
        }

    def model_fields(self) -> dict[str, Any]:
        data = self.own_fields()
        data["price_cents"] = to_cents(data.pop("price"))
        data["photo_upload"] = data.pop("photo") or None
        data["translations"] = self.translations()
        return data


class ModifierGroupForm(TranslatedForm):
    name = forms.CharField(label=_("Name"), max_length=200)
    required = forms.BooleanField(label=_("Required"), required=False)
    min = forms.IntegerField(label=_("Min"), min_value=0, max_value=50, initial=0)
    max = forms.IntegerField(label=_("Max"), min_value=1, max_value=50, initial=1)


class ModifierOptionForm(TranslatedForm):
    name = forms.CharField(label=_("Name"), max_length=200)
    price = PriceField(label=_("Price"), initial=Decimal("0.00"))

    def model_fields(self) -> dict[str, Any]:
        data = self.own_fields()
        data["price_cents"] = to_cents(data.pop("price"))
        return {**data, "translations": self.translations()}
