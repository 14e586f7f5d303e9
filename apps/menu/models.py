"""Catalogs of a business: categories, items, modifier groups and options. One catalog per
business is active; it is the menu agents sell from."""

from collections.abc import Collection

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone

from apps.menu.labels import ALLERGENS, DIETARY, LANGUAGES
from apps.menu.photos import photo_storage
from apps.menu.translations import item_translations, name_translations


def _check_codes(value: object, known: Collection[str], what: str) -> None:
    if not isinstance(value, list) or any(code not in known for code in value) or len(set(value)) != len(value):
        raise ValidationError(f"{what} is a list of distinct codes among: {', '.join(known)}.")


def validate_allergens(value: object) -> None:
    _check_codes(value, ALLERGENS, "Allergens")


def validate_dietary(value: object) -> None:
    _check_codes(value, DIETARY, "Dietary")


class Catalog(models.Model):
    business = models.ForeignKey("accounts.Business", on_delete=models.CASCADE, related_name="catalogs")
    name = models.CharField(max_length=200)
    is_active = models.BooleanField(default=False)
    language = models.CharField(
        max_length=8,
        choices=list(LANGUAGES.items()),
        default="en",
        help_text="The language its entries' own names are written in: the business's default for its menu.",
    )
    # Bumped by every change that alters what the kiosk's menu read answers (apps.menu.services);
    # the read's ETag and its cached bodies are keyed on it.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["business"], condition=models.Q(is_active=True), name="one_active_catalog_per_business"
            )
        ]

    def __str__(self) -> str:
        return self.name


class Category(models.Model):
    catalog = models.ForeignKey(Catalog, on_delete=models.CASCADE, related_name="categories")
    name = models.CharField(max_length=200)
    translations = models.JSONField(default=dict, blank=True, validators=[name_translations])
    sort_order = models.IntegerField(default=0)

    class Meta:
        ordering = ["sort_order", "pk"]
        verbose_name_plural = "categories"

    def __str__(self) -> str:
        return self.name


class MenuItem(models.Model):
    category = models.ForeignKey(Category, on_delete=models.CASCADE, related_name="items")
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    translations = models.JSONField(default=dict, blank=True, validators=[item_translations])
    price_cents = models.PositiveIntegerField()
    # Re-encoded by apps.menu.photos; the name holds the content hash, so a URL never changes meaning.
    photo = models.FileField(storage=photo_storage, max_length=255, blank=True)
    allergens = models.JSONField(default=list, blank=True, validators=[validate_allergens])
    dietary = models.JSONField(default=list, blank=True, validators=[validate_dietary])
    active = models.BooleanField(default=True)
    sort_order = models.IntegerField(default=0)
    track_stock = models.BooleanField(default=False)
    stock = models.IntegerField(default=0, help_text="Units left, when stock is tracked.")
    low_stock_threshold = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["sort_order", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def sold_out(self) -> bool:
        return self.track_stock and self.stock <= 0


class ModifierGroup(models.Model):
    item = models.ForeignKey(MenuItem, on_delete=models.CASCADE, related_name="modifier_groups")
    name = models.CharField(max_length=200)
    translations = models.JSONField(default=dict, blank=True, validators=[name_translations])
    required = models.BooleanField(default=False)
    min = models.PositiveSmallIntegerField(default=0)
    max = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1), MaxValueValidator(50)])
    sort_order = models.IntegerField(default=0)

    class Meta:
        ordering = ["sort_order", "pk"]
        constraints = [models.CheckConstraint(condition=models.Q(min__lte=models.F("max")), name="modifier_min_le_max")]

    def __str__(self) -> str:
        return f"{self.item}: {self.name}"

    @property
    def min_choices(self) -> int:
        """How many options must be chosen: a required group needs at least one."""
        return max(self.min, 1) if self.required else self.min


class ModifierOption(models.Model):
    group = models.ForeignKey(ModifierGroup, on_delete=models.CASCADE, related_name="options")
    name = models.CharField(max_length=200)
    translations = models.JSONField(default=dict, blank=True, validators=[name_translations])
    price_cents = models.PositiveIntegerField(default=0)
    sort_order = models.IntegerField(default=0)

    class Meta:
        ordering = ["sort_order", "pk"]

    def __str__(self) -> str:
        return self.name
