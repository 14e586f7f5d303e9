"""Routing's rows: the offers of sessions to agents and each owner's routing settings. They were
apps.sessions' models and keep their tables (agent_sessions_*, index names included): the move
was state-only (docs/decisions/structure.md "Routing is its own app")."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.sessions.models import Session


class OfferStatus(models.TextChoices):
    LIVE = "live", _("Live")
    ACCEPTED = "accepted", _("Accepted")
    MISSED = "missed", _("Missed")  # lapsed without an answer: counts toward the agent's break
    WITHDRAWN = "withdrawn", _("Withdrawn")  # the session was taken, ended, or the agent left


class Offer(models.Model):
    """One agent told of one waiting session until `expires_at` (apps/routing/offers.py), or of
    an active session a colleague hands on (`transfer_from`, apps/routing/transfer.py). An agent
    holds at most one live offer; queue offers decide who is told, not who may accept."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="offers")
    agent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="offers")
    status = models.CharField(max_length=10, choices=OfferStatus.choices, default=OfferStatus.LIVE)
    any_language = models.BooleanField(default=False)  # outside the agent's languages (router.py)
    # Set on a transfer offer (apps/routing/transfer.py): the agent handing the active session on.
    transfer_from = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="transfers_offered"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["agent"], condition=models.Q(status="live"), name="one_live_offer_per_agent"
            ),
        ]
        db_table = "agent_sessions_offer"
        indexes = [
            models.Index(fields=["status", "expires_at"], name="agent_sessi_status_a91506_idx"),
            models.Index(fields=["session", "status"], name="agent_sessi_session_78f7cf_idx"),
        ]

    def __str__(self) -> str:
        return f"offer of {self.session_id} to {self.agent_id} ({self.status})"


class RoutingSettings(models.Model):
    """An owner's routing settings (the panel's Settings page); without a row, the ROUTING_*
    defaults of the environment apply (apps/routing/routing_settings.py)."""

    owner = models.OneToOneField("accounts.Owner", on_delete=models.CASCADE, related_name="routing_settings")
    offer_size = models.PositiveSmallIntegerField()
    offer_seconds = models.PositiveSmallIntegerField()
    any_language_after_seconds = models.PositiveIntegerField()
    misses_before_break = models.PositiveSmallIntegerField()
    self_service_after_seconds = models.PositiveIntegerField()
    agents_start_on_break = models.BooleanField(default=False)
    # C: the sessions each agent holds at once (an agent may override it); null: ROUTING_AGENT_CAPACITY.
    agent_capacity = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        db_table = "agent_sessions_routingsettings"

    def __str__(self) -> str:
        return f"routing settings of owner {self.owner_id}"
