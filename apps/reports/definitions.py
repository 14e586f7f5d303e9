"""What the metrics of docs/reports.md count, shared by the exact report and the rollup."""

from datetime import timedelta

from apps.orders.models import PAID_STATUSES

PAID = PAID_STATUSES  # orders that took the customer's money (apps.orders.models)
ANSWER_TARGET = timedelta(seconds=30)
