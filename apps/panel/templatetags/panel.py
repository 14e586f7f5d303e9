"""Template filters for the panel: money in minor units, durations in seconds."""

from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def money(cents, currency: str = "") -> str:
    if cents is None or cents == "":
        return "—"
    amount = (Decimal(int(cents)) / 100).quantize(Decimal("0.01"))
    sign = "-" if amount < 0 else ""
    return f"{sign}{abs(amount):,.2f} {currency}".strip()


@register.filter
def seconds(value) -> str:
    """123 -> '2m 03s'."""
    if value is None or value == "":
        return "—"
    value = int(value)
    minutes, secs = divmod(value, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    return f"{minutes}m {secs:02d}s" if minutes else f"{secs}s"


@register.filter
def percent_of(part, whole) -> int:
    return round(100 * part / whole) if whole else 0


@register.filter
def major_units(cents) -> str:
    """Cents as a plain decimal for number inputs: 150 -> '1.50'."""
    return f"{(Decimal(int(cents)) / 100).quantize(Decimal('0.01'))}"
