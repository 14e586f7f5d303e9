"""Every allowed session transition, in one table (spec section 3 + DESIGN.md "Sessions").

Services ask `next_status` before writing; anything not listed is refused with 409
INVALID_STATE (or SESSION_ALREADY_ENDED for a session that is over).
"""

from apps.core.errors import DomainError, ErrorCode
from apps.sessions.models import ENDED_STATUSES, EndReason, SessionStatus

S = SessionStatus

# (from status, action) -> to status
TRANSITIONS: dict[tuple[str, str], str] = {
    (S.PENDING, "accept"): S.ACTIVE,
    (S.PENDING, "kiosk_cancel"): S.ABANDONED,
    (S.PENDING, "timeout"): S.ABANDONED,
    # Self-service: a customer nobody has answered pays alone and leaves the
    # queue; taking the payment back returns to the queue, in its old place.
    (S.PENDING, "self_service_payment"): S.PAYMENT,
    (S.PAYMENT, "self_service_cancel_payment"): S.PENDING,
    (S.ACTIVE, "kiosk_cancel"): S.ABANDONED,
    (S.ACTIVE, "end:completed"): S.COMPLETED,
    (S.ACTIVE, "end:customer_abandoned"): S.ABANDONED,
    (S.ACTIVE, "end:refused_service"): S.ABANDONED,
    (S.ACTIVE, "end:technical_issue"): S.FAILED,
    (S.ACTIVE, "send_to_payment"): S.PAYMENT,
    (S.ACTIVE, "transfer"): S.ACTIVE,  # only the serving agent changes (apps/routing/transfer.py)
    (S.PAYMENT, "cancel_payment"): S.ACTIVE,
    (S.PAYMENT, "payment_succeeded"): S.COMPLETED,
    # In payment the agent may still give up; "completed" only comes from the processor.
    (S.PAYMENT, "end:customer_abandoned"): S.ABANDONED,
    (S.PAYMENT, "end:refused_service"): S.ABANDONED,
    (S.PAYMENT, "end:technical_issue"): S.FAILED,
}

AGENT_END_REASONS = (
    EndReason.COMPLETED,
    EndReason.CUSTOMER_ABANDONED,
    EndReason.TECHNICAL_ISSUE,
    EndReason.REFUSED_SERVICE,
)


def next_status(current: str, action: str) -> str:
    if (current, action) in TRANSITIONS:
        return TRANSITIONS[(current, action)]
    if current in ENDED_STATUSES:
        raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has already ended.")
    raise DomainError(
        ErrorCode.INVALID_STATE,
        "A {current} session cannot {action}.",
        params={"current": current, "action": action.replace("_", " ")},
    )
