"""Template filters for the panel: money in minor units, durations in seconds."""

from collections.abc import Mapping
from decimal import Decimal

from django import template

from apps.menu import photos
from apps.menu.models import Category, MenuItem, ModifierGroup, ModifierOption
from apps.panel.labels import choice_label, end_reason_label

register = template.Library()


@register.filter
def money(cents: int | str | None, currency: str = "") -> str:
    if cents is None or cents == "":
        return "—"
    amount = (Decimal(int(cents)) / 100).quantize(Decimal("0.01"))
    sign = "-" if amount < 0 else ""
    return f"{sign}{abs(amount):,.2f} {currency}".strip()


@register.filter
def seconds(value: float | str | None) -> str:
    """123 -> '2m 03s'."""
    if value is None or value == "":
        return "—"
    minutes, secs = divmod(int(value), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


@register.filter
def label(code: str, kind: str) -> str:
    """`{{ order.status|label:"order_status" }}`: a code in the panel's words (apps/panel/labels.py)."""
    return choice_label(kind, code)


@register.filter
def percent_of(part: float, whole: float) -> int:
    return round(100 * part / whole) if whole else 0


@register.filter
def major_units(cents: int | str) -> str:
    """Cents as a plain decimal for number inputs: 150 -> '1.50'."""
    return f"{(Decimal(int(cents)) / 100).quantize(Decimal('0.01'))}"


@register.filter
def name_in(entry: Category | MenuItem | ModifierGroup | ModifierOption, language: str) -> str:
    """A menu entry's own translation of its name into `language` ("" when it has none)."""
    return str(((entry.translations or {}).get(language) or {}).get("name", ""))


@register.filter
def label_of(code: str, labels: Mapping[str, str]) -> str:
    return labels.get(code, code)


@register.filter
def photo_src(name: str) -> str:
    """A stored menu photo's URL (local media or the bucket's)."""
    return photos.photo_url(name) or ""


@register.filter
def end_reason(code: str) -> str:
    """A session's end reason in words (apps/panel/labels.py)."""
    return end_reason_label(code)
