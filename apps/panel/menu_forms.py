"""Menu editing forms. Prices are typed in major units and stored in cents."""

from decimal import Decimal

from django import forms


def to_cents(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


class PriceField(forms.DecimalField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", Decimal("0"))
        super().__init__(max_digits=9, decimal_places=2, **kwargs)


class CatalogForm(forms.Form):
    name = forms.CharField(
        max_length=200,
        label="New catalog name",
        widget=forms.TextInput(attrs={"placeholder": "e.g. Winter menu", "aria-label": "New catalog name"}),
    )


class CategoryForm(forms.Form):
    name = forms.CharField(
        max_length=200, widget=forms.TextInput(attrs={"placeholder": "New category", "aria-label": "Category name"})
    )
    sort_order = forms.IntegerField(initial=0)


class MenuItemForm(forms.Form):
    name = forms.CharField(max_length=200)
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)
    price = PriceField()
    photo_url = forms.URLField(required=False, label="Photo URL", assume_scheme="https")
    active = forms.BooleanField(required=False, initial=True, label="Available")
    sort_order = forms.IntegerField(initial=0)
    track_stock = forms.BooleanField(required=False, label="Track stock")
    stock = forms.IntegerField(min_value=0, initial=0, help_text="Units left, when stock is tracked.")
    low_stock_threshold = forms.IntegerField(
        min_value=0, required=False, help_text="inventory.low fires when stock falls to this."
    )

    @classmethod
    def initial_for(cls, item) -> dict:
        return {
            "name": item.name,
            "description": item.description,
            "price": from_cents(item.price_cents),
            "photo_url": item.photo_url,
            "active": item.active,
            "sort_order": item.sort_order,
            "track_stock": item.track_stock,
            "stock": item.stock,
            "low_stock_threshold": item.low_stock_threshold,
        }

    def model_fields(self) -> dict:
        data = dict(self.cleaned_data)
        data["price_cents"] = to_cents(data.pop("price"))
        return data


class ModifierGroupForm(forms.Form):
    name = forms.CharField(max_length=200)
    required = forms.BooleanField(required=False)
    min = forms.IntegerField(min_value=0, max_value=50, initial=0)
    max = forms.IntegerField(min_value=1, max_value=50, initial=1)


class ModifierOptionForm(forms.Form):
    name = forms.CharField(max_length=200)
    price = PriceField(initial=Decimal("0.00"))

    def model_fields(self) -> dict:
        return {"name": self.cleaned_data["name"], "price_cents": to_cents(self.cleaned_data["price"])}
