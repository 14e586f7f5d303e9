"""Sales by item and by modifier option over the paid orders of a range's sessions."""

from typing import TypedDict

from django.db import connection
from django.db.models import F, QuerySet, Sum

from apps.orders.models import OrderLine
from apps.reports.definitions import PAID, KeyBody
from apps.reports.ranges import ReportRange


def _paid_lines(report: ReportRange) -> QuerySet[OrderLine]:
    return OrderLine.objects.filter(**report.session_scope("order__session__"), order__status__in=PAID)


class ItemSales(TypedDict):
    item: KeyBody
    quantity: int
    revenue_cents: int


class OptionSales(TypedDict):
    group: str
    option: KeyBody
    quantity: int
    revenue_cents: int


class ItemsReport(TypedDict):
    items: list[ItemSales]
    options: list[OptionSales]


def item_sales(report: ReportRange) -> list[ItemSales]:
    """[{item: {id, name}, quantity, revenue_cents}], best sellers (by revenue) first. Lines
    keep the name sold under, so a renamed item shows under each of its names."""
    rows = (
        _paid_lines(report)
        .values("menu_item_id", "name")
        .annotate(sold=Sum("quantity"), sales=Sum(F("quantity") * F("unit_price_cents")))
        .order_by("-sales", "name", "menu_item_id")
    )
    return [
        {
            "item": {"id": row["menu_item_id"], "name": row["name"]},
            "quantity": int(row["sold"]),
            "revenue_cents": int(row["sales"]),
        }
        for row in rows
    ]


# A line's modifiers are a JSON list [{group, value, option_id}]: each element is expanded in
# SQL (jsonb_array_elements on PostgreSQL, json_each on SQLite) and the lines carrying it summed.
_OPTIONS_SQL = {
    "postgresql": (
        "SELECT m.value->>'group', m.value->>'value', (m.value->>'option_id')::bigint, "
        "SUM(l.quantity), SUM(l.quantity * l.unit_price_cents) "
        "FROM ({lines}) l CROSS JOIN LATERAL jsonb_array_elements(l.modifiers::jsonb) m "
        "GROUP BY 1, 2, 3 ORDER BY 4 DESC, 1, 2"
    ),
    "sqlite": (
        "SELECT json_extract(m.value, '$.group'), json_extract(m.value, '$.value'), "
        "json_extract(m.value, '$.option_id'), SUM(l.quantity), SUM(l.quantity * l.unit_price_cents) "
        "FROM ({lines}) l, json_each(l.modifiers) m "
        "GROUP BY 1, 2, 3 ORDER BY 4 DESC, 1, 2"
    ),
}


def option_sales(report: ReportRange) -> list[OptionSales]:
    """[{group, option: {id, name}, quantity, revenue_cents}]: `quantity` items sold with the
    option, `revenue_cents` those lines' sales (options carry no price of their own on a line)."""
    lines_sql, params = _paid_lines(report).values("quantity", "unit_price_cents", "modifiers").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(_OPTIONS_SQL[connection.vendor].format(lines=lines_sql), params)
        rows = cursor.fetchall()
    return [
        {
            "group": group,
            "option": {"id": option_id, "name": value},
            "quantity": int(quantity),
            "revenue_cents": int(revenue),
        }
        for group, value, option_id, quantity, revenue in rows
    ]


def items_report(report: ReportRange) -> ItemsReport:
    return {"items": item_sales(report), "options": option_sales(report)}
