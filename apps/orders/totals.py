"""Order arithmetic in integer cents (DESIGN.md "Orders and menu")."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Totals:
    subtotal_cents: int
    tax_cents: int
    total_cents: int


def exclusive_tax_cents(subtotal_cents: int, tax_rate_bps: int) -> int:
    """Tax at `tax_rate_bps` basis points, rounded half-up once for the whole order."""
    return (subtotal_cents * tax_rate_bps + 5000) // 10000


def order_totals(line_totals_cents: list[int], tax_rate_bps: int) -> Totals:
    subtotal = sum(line_totals_cents)
    tax = exclusive_tax_cents(subtotal, tax_rate_bps)
    return Totals(subtotal_cents=subtotal, tax_cents=tax, total_cents=subtotal + tax)
