"""What a report row is keyed by (group_by), as an SQL expression, and each key's display name."""

from collections.abc import Sequence

from django.db.models import F, Func
from django.db.models.functions import ExtractHour, TruncDate
from django.utils.translation import get_language_info

from apps.accounts.models import User
from apps.kiosks.models import Kiosk
from apps.reports.definitions import KeyBody, ReportKey
from apps.reports.ranges import ReportRange


def key_expression(
    group_by: str, report: ReportRange, session_path: str = "", agent_path: str | None = None
) -> F | Func:
    """The row key of a model whose path to its session is `session_path` ("" for Session
    itself). `agent_path` overrides where the agent is read (an offer's own agent)."""
    if group_by == "agent":
        return F(agent_path or f"{session_path}agent_id")
    if group_by == "kiosk":
        return F(f"{session_path}kiosk_id")
    if group_by == "language":
        return F(f"{session_path}customer_locale")
    if group_by == "hour":
        return ExtractHour(f"{session_path}created_at", tzinfo=report.zone)
    if group_by == "day":
        return TruncDate(f"{session_path}created_at", tzinfo=report.zone)
    raise ValueError(f"unknown group_by {group_by!r}")


def key_bodies(group_by: str, keys: Sequence[ReportKey]) -> dict[ReportKey, KeyBody]:
    """{key: {id, name}} for the keys found (one query for agents or kiosks)."""
    if group_by == "agent":
        names = dict(User.objects.filter(pk__in=[key for key in keys if key is not None]).values_list("pk", "name"))
        return {key: {"id": key, "name": names.get(key, "No agent") if key else "No agent"} for key in keys}
    if group_by == "kiosk":
        names = dict(Kiosk.objects.filter(pk__in=keys).values_list("pk", "name"))
        return {key: {"id": key, "name": names.get(key, "")} for key in keys}
    if group_by == "language":
        return {key: {"id": key, "name": _language_name(key)} for key in keys}
    if group_by == "hour":
        return {key: {"id": key, "name": f"{key:02d}:00"} for key in keys}
    return {key: {"id": key.isoformat(), "name": key.isoformat()} for key in keys}


def _language_name(locale: str) -> str:
    try:
        name: str = get_language_info(locale.split("-")[0].lower())["name"]
        return name
    except KeyError:
        return locale
