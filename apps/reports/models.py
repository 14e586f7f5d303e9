"""The reports' own tables: the sessions rollup (PostgreSQL's fast path for long ranges, see
apps/reports/rollup.py), the hours it must recompute, and agents' breaks (time on break)."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from apps.reports.histogram import columns

COUNTS = (
    "sessions_started",
    "sessions_answered",
    "answered_within_30s",
    "abandoned_waiting",
    "abandoned_after_answer",
    "handle_count",
    "paid_orders",
    "paid_orders_answered",
    "revenue_cents",
    "self_service_orders",
    "items",
    "refunds_cents",
    "transfers",
    "offers",
    "offers_missed",
    "offers_accepted",
)
HISTOGRAMS = (*columns("answer"), *columns("handle"))
MONEY = ("revenue_cents", "refunds_cents")


class SessionRollup(models.Model):
    """The sessions of one owner's business started in one UTC hour (grain "h") or UTC day
    ("d", the sum of its hours), per value of one dimension: `dim` "" (all), "agent" (the
    session's last agent; offers count for the agent offered), "kiosk" or "language"; `value`
    is the id or locale as text, "" for no agent. Rows are recomputed from the base tables,
    never adjusted, so they say what the exact report says (percentiles: histogram buckets)."""

    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="+")
    business = models.ForeignKey("accounts.Business", on_delete=models.CASCADE, related_name="+")
    grain = models.CharField(max_length=1)
    bucket = models.DateTimeField()
    dim = models.CharField(max_length=8, blank=True)
    value = models.CharField(max_length=35, blank=True)
    handle_seconds_sum = models.FloatField(default=0)
    # int4 (sum() adds them in int8; bigint sums go through numeric, several times slower);
    # money in int8: a busy day's cents of one agent could pass 2^31
    for _name in (*COUNTS, *HISTOGRAMS):
        locals()[_name] = models.BigIntegerField(default=0) if _name in MONEY else models.IntegerField(default=0)
    del _name

    class Meta:
        indexes = [models.Index(fields=["owner", "dim", "grain", "bucket"], name="rollup_owner_dim_bucket")]

    def __str__(self) -> str:
        return f"{self.grain} {self.bucket:%Y-%m-%d %H}Z {self.dim}={self.value}"


class StaleHour(models.Model):
    """An hour of an owner's sessions that changed since the rollup last counted it. PostgreSQL
    triggers on the session, order, line, refund, assignment and offer tables add one in the
    transaction of the change (migration 0002); the next rollup read recomputes and drops it."""

    owner_id = models.BigIntegerField()
    hour = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["owner_id", "hour"], name="stale_hour_owner")]

    def __str__(self) -> str:
        return f"owner {self.owner_id} {self.hour:%Y-%m-%d %H}Z"


class _AgentStretch(models.Model):
    """A stretch of an agent's time, open (no `ended_at`) until it ends: at most one open at a
    time per agent (`_one_open_per_agent`)."""

    agent_id: int
    owner = models.ForeignKey(
        "accounts.Owner", null=True, on_delete=models.CASCADE, related_name="+"
    )  # platform agents: none
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    doing = ""  # what the agent did in it, for its name

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return f"agent {self.agent_id} {self.doing} from {self.started_at:%Y-%m-%d %H:%M}"


def _one_open_per_agent(name: str) -> models.UniqueConstraint:
    return models.UniqueConstraint(fields=["agent"], condition=models.Q(ended_at__isnull=True), name=name)


class AgentBreak(_AgentStretch):
    """A stretch an agent spent on break: opened when its status becomes "break", closed when
    it becomes anything else (apps/reports/breaks.py, on AgentStatusChanged)."""

    agent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="breaks")
    doing = "on break"

    class Meta:
        constraints = [_one_open_per_agent("one_open_break_per_agent")]
        indexes = [models.Index(fields=["owner", "started_at"], name="agent_break_owner_started")]


class AgentSignedIn(_AgentStretch):
    """A stretch an agent was signed in (any status but offline): opened when its status leaves
    "offline", closed when it becomes "offline" (apps/reports/agent_load.py, on
    AgentStatusChanged). The reports' concurrency and sessions per agent-hour are per hour of it."""

    agent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signed_in_spans")
    doing = "signed in"

    class Meta:
        constraints = [_one_open_per_agent("one_open_sign_in_per_agent")]
        indexes = [models.Index(fields=["owner", "started_at"], name="agent_signed_in_owner_started")]
