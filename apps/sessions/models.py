"""The customer-agent session: one kiosk, at most one agent, one video channel."""

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class SessionStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    ACTIVE = "active", _("Active")
    PAYMENT = "payment", _("Payment")
    COMPLETED = "completed", _("Completed")
    ABANDONED = "abandoned", _("Abandoned")
    FAILED = "failed", _("Failed")


OPEN_STATUSES = (SessionStatus.PENDING, SessionStatus.ACTIVE, SessionStatus.PAYMENT)
ENDED_STATUSES = (SessionStatus.COMPLETED, SessionStatus.ABANDONED, SessionStatus.FAILED)


class EndReason(models.TextChoices):
    COMPLETED = "completed", _("Completed")
    CUSTOMER_ABANDONED = "customer_abandoned", _("Customer Abandoned")
    TECHNICAL_ISSUE = "technical_issue", _("Technical Issue")
    REFUSED_SERVICE = "refused_service", _("Refused Service")
    # Ways out that are not an agent's end call:
    KIOSK_CANCELLED = "kiosk_cancelled", _("Kiosk Cancelled")  # the customer tapped cancel or leave
    KIOSK_INACTIVITY = "kiosk_inactivity", _("Kiosk Inactivity")  # the kiosk's "still there?" prompt went unanswered
    TIMED_OUT = "timed_out", _("Timed Out")


class Medium(models.TextChoices):
    """How the customer talks to the agent: the video call (the default) or the text chat. An
    active video session is the agent's one video conversation; a chat session takes a seat of
    the agent's capacity only (apps/sessions/seats.py)."""

    VIDEO = "video", _("Video")
    CHAT = "chat", _("Chat")


def new_public_id() -> str:
    return "ses_" + secrets.token_urlsafe(15)  # 20 url-safe characters


class Session(models.Model):
    public_id = models.CharField(max_length=32, unique=True, default=new_public_id)
    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="sessions")
    business = models.ForeignKey("accounts.Business", on_delete=models.CASCADE, related_name="sessions")
    kiosk = models.ForeignKey("kiosks.Kiosk", on_delete=models.CASCADE, related_name="sessions")
    agent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="agent_sessions"
    )
    status = models.CharField(max_length=10, choices=SessionStatus.choices, default=SessionStatus.PENDING)
    customer_locale = models.CharField(max_length=35)
    # The customer turned on the kiosk's accessible mode (speech, keypad, low layout, longer times).
    accessible_mode = models.BooleanField(default=False)
    # The customer answered the kiosk's warning before the pending timeout: the clock runs from here
    # (apps/sessions/pending_timeout.py).
    timeout_extended_at = models.DateTimeField(null=True, blank=True)
    medium = models.CharField(max_length=5, choices=Medium.choices, default=Medium.VIDEO)
    # When its agent began taking its payment back (apps/sessions/seats.py): for
    # PAYMENT_TAKE_BACK_HOLD_SECONDS the session holds its agent's video seat while still in payment.
    payment_taken_back_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    accepted_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=20, choices=EndReason.choices, blank=True)
    notes = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kiosk"],
                condition=models.Q(status__in=["pending", "active", "payment"]),
                name="one_open_session_per_kiosk",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "created_at"]),
            # Covering (PostgreSQL): the reports read a range of one owner's sessions and these
            # columns only, so the range scan needs no visit to the table (docs/decisions/reports.md).
            models.Index(
                fields=["owner", "created_at"],
                include=["agent", "kiosk", "status", "accepted_at", "ended_at", "customer_locale", "business"],
                name="session_owner_created_cover",
            ),
            models.Index(fields=["agent", "status"]),
        ]

    def __str__(self) -> str:
        return self.public_id

    @property
    def duration_seconds(self) -> int | None:
        """Talk time: from accept to end (0 for a session no agent accepted)."""
        if self.ended_at is None:
            return None
        if self.accepted_at is None:
            return 0
        return max(0, int((self.ended_at - self.accepted_at).total_seconds()))


class AssignmentVia(models.TextChoices):
    ACCEPT = "accept", _("Accept")
    TRANSFER = "transfer", _("Transfer")


class Assignment(models.Model):
    """Who served a session when: one row per agent that held it, opened by an accept or a
    transfer and closed when the session ends or moves on. Reports count transfers and handle
    time per agent from these rows; the panel's session timeline shows them."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="assignments")
    agent = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="assignments"
    )
    via = models.CharField(max_length=10, choices=AssignmentVia.choices)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session"], condition=models.Q(ended_at__isnull=True), name="one_open_assignment_per_session"
            ),
        ]
        indexes = [models.Index(fields=["agent", "started_at"])]

    def __str__(self) -> str:
        return f"{self.session_id} served by {self.agent_id} ({self.via})"
