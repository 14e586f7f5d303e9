"""Words the panel shows for the codes the data keeps."""

# How a session ended (apps.sessions.models.EndReason), as an owner reads it.
END_REASONS = {
    "completed": "Completed",
    "customer_abandoned": "Customer left (agent ended)",
    "technical_issue": "Technical issue",
    "refused_service": "Service refused",
    "kiosk_cancelled": "Customer cancelled at the kiosk",
    "kiosk_inactivity": "No answer at the kiosk (inactivity)",
    "timed_out": "No agent answered in time",
}


def end_reason_label(code: str) -> str:
    return END_REASONS.get(code) or (code.replace("_", " ").capitalize() if code else "—")


# The Reports page's column headers: words for the owner; the CSV keeps the API's names
# (docs/reports.md), shown as each header's tooltip.
REPORT_METRICS = {
    "sessions_started": "Sessions started",
    "sessions_answered": "Sessions answered",
    "answer_seconds_p50": "Answer time, median (s)",
    "answer_seconds_p90": "Answer time, 90th percentile (s)",
    "answered_within_30s_share": "Answered within 30 s",
    "abandoned_waiting": "Left while waiting",
    "abandoned_after_answer": "Left after an answer",
    "handle_seconds_avg": "Handle time, average (s)",
    "handle_seconds_p90": "Handle time, 90th percentile (s)",
    "transfers": "Transfers",
    "paid_orders": "Paid orders",
    "conversion": "Conversion",
    "revenue_cents": "Revenue",
    "average_order_cents": "Average order",
    "items_per_order": "Items per order",
    "refunds_cents": "Refunds",
    "self_service_orders": "Self-service orders",
    "self_service_share": "Self-service share",
    "offers": "Offers",
    "offers_missed": "Offers missed",
    "offer_acceptance": "Offer acceptance",
}


def report_metric_label(name: str) -> str:
    return REPORT_METRICS.get(name) or name.replace("_", " ").capitalize()
