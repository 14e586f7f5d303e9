"""What the metrics of docs/reports.md count, shared by the exact report and the rollup."""

from datetime import timedelta

from apps.orders.models import CHARGED_STATUSES

# A sale: an order that took the customer's money, refunded or not (refunds are counted apart).
PAID = CHARGED_STATUSES
ANSWER_TARGET = timedelta(seconds=30)
