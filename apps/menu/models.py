"""Catalogs of a business: categories, items, modifier groups and options. One catalog per
business is active; it is the menu agents sell from."""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone


class Catalog(models.Model):
    business = models.ForeignKey("accounts.Business", on_delete=models.CASCADE, related_name="catalogs")
    name = models.CharField(max_length=200)
    is_active = models.BooleanField(default=False)
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
    price_cents = models.PositiveIntegerField()
    photo_url = models.URLField(blank=True)
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
    price_cents = models.PositiveIntegerField(default=0)
    sort_order = models.IntegerField(default=0)

    class Meta:
        ordering = ["sort_order", "pk"]

    def __str__(self) -> str:
        return self.name
