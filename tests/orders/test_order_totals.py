"""Order arithmetic: integer cents, exclusive tax rounded half-up once per order."""

from decimal import ROUND_HALF_UP, Decimal

from hypothesis import given
from hypothesis import strategies as st

from apps.orders.totals import exclusive_tax_cents, order_totals

line_totals = st.lists(st.integers(min_value=0, max_value=500_000), max_size=40)
rates = st.integers(min_value=0, max_value=10_000)


@given(line_totals, rates)
def test_totals_add_up(lines, rate):
    totals = order_totals(lines, rate)
    assert totals.subtotal_cents == sum(lines)
    assert totals.total_cents == totals.subtotal_cents + totals.tax_cents


@given(line_totals, rates)
def test_tax_is_rounded_half_up_once_per_order(lines, rate):
    exact = Decimal(sum(lines)) * Decimal(rate) / Decimal(10_000)
    expected = int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    assert order_totals(lines, rate).tax_cents == expected


@given(st.integers(min_value=0, max_value=10**9), rates)
def test_tax_never_exceeds_the_rate_by_more_than_half_a_cent(subtotal, rate):
    tax = exclusive_tax_cents(subtotal, rate)
    assert abs(Decimal(tax) - Decimal(subtotal) * rate / 10_000) <= Decimal("0.5")


def test_known_half_cent_cases():
    assert exclusive_tax_cents(1000, 5) == 1  # 0.5 -> 1
    assert exclusive_tax_cents(999, 5) == 0  # 0.4995 -> 0
    assert exclusive_tax_cents(2647, 875) == 232  # 231.6125
    assert exclusive_tax_cents(0, 2000) == 0
