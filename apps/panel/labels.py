"""Words the panel shows for the codes the data keeps."""

from django.utils.translation import gettext_lazy as _

# How a session ended (apps.sessions.models.EndReason), as an owner reads it.
END_REASONS = {
    "completed": _("Completed"),
    "customer_abandoned": _("Customer left (agent ended)"),
    "technical_issue": _("Technical issue"),
    "refused_service": _("Service refused"),
    "kiosk_cancelled": _("Customer cancelled at the kiosk"),
    "kiosk_inactivity": _("No answer at the kiosk (inactivity)"),
    "timed_out": _("No agent answered in time"),
}


# The codes Django would name from the model's member ("Awaiting payment"), in the catalogue: an
# order's status, where it is eaten, a display's screen and the billing plan.
CHOICES = {
    "order_status": {
        "draft": _("Draft"),
        "awaiting_payment": _("Awaiting payment"),
        "paid": _("Paid"),
        "failed": _("Failed"),
        "confirmed": _("Confirmed"),
        "preparing": _("Preparing"),
        "ready": _("Ready"),
        "completed": _("Completed"),
        "refunded": _("Refunded"),
    },
    "dining": {"eat_in": _("Eat in"), "take_away": _("Take away")},
    "display_kind": {"kitchen": _("Kitchen"), "board": _("Board")},
    "plan": {"free": _("Free"), "pro": _("Pro")},
    # A kiosk's card reader as the processor reports it (apps.billing.models.CardReader).
    "reader_status": {"online": _("online"), "offline": _("offline")},
    "reader_action": {"process_payment_intent": _("Take a payment")},
    "reader_action_status": {
        "in_progress": _("waiting for a card"),
        "succeeded": _("succeeded"),
        "failed": _("failed"),
        "canceled": _("cancelled"),
    },
}


def choice_label(kind: str, code: str) -> str:
    """The panel's word for one of a model's codes (the code itself when it has none)."""
    label = CHOICES[kind].get(code)
    return str(label) if label else code


def end_reason_label(code: str) -> str:
    label = END_REASONS.get(code)
    return str(label) if label else (code.replace("_", " ").capitalize() if code else "—")


# The Reports page's column headers: words for the owner; the CSV keeps the API's names
# (docs/reports.md), shown as each header's tooltip.
REPORT_METRICS = {
    "sessions_started": _("Sessions started"),
    "sessions_answered": _("Sessions answered"),
    "answer_seconds_p50": _("Answer time, median (s)"),
    "answer_seconds_p90": _("Answer time, 90th percentile (s)"),
    "answered_within_30s_share": _("Answered within 30 s"),
    "abandoned_waiting": _("Left while waiting"),
    "abandoned_after_answer": _("Left after an answer"),
    "handle_seconds_avg": _("Handle time, average (s)"),
    "handle_seconds_p90": _("Handle time, 90th percentile (s)"),
    "transfers": _("Transfers"),
    "paid_orders": _("Paid orders"),
    "conversion": _("Conversion"),
    "revenue_cents": _("Revenue"),
    "average_order_cents": _("Average order"),
    "items_per_order": _("Items per order"),
    "refunds_cents": _("Refunds"),
    "self_service_orders": _("Self-service orders"),
    "self_service_share": _("Self-service share"),
    "offers": _("Offers"),
    "offers_missed": _("Offers missed"),
    "offer_acceptance": _("Offer acceptance"),
}


def report_metric_label(name: str) -> str:
    label = REPORT_METRICS.get(name)
    return str(label) if label else name.replace("_", " ").capitalize()
