"""What the metrics of docs/reports.md count, shared by the exact report and the rollup."""

from datetime import timedelta
from typing import Any, TypedDict

from apps.orders.models import CHARGED_STATUSES

# A sale: an order that took the customer's money, refunded or not (refunds are counted apart).
PAID = CHARGED_STATUSES
ANSWER_TARGET = timedelta(seconds=30)

# One group's aggregates as the database returns them, by name (counts, sums, percentiles: ints,
# floats, Decimals or NULL); metrics_of turns them into the named metrics.
RawFigures = dict[str, Any]
# The metrics of docs/reports.md by name (METRICS): counts, or shares and seconds (None: no base).
Metrics = dict[str, int | float | None]
# A report row's group key: its type follows group_by (agent or kiosk id, locale, hour, day).
ReportKey = Any


class KeyBody(TypedDict):
    """A row's key as the report shows it."""

    id: int | str | None
    name: str
