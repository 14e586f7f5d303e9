"""A report's range: days in the business's time zone, both included, as UTC instants."""

import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from apps.accounts.models import Business
from apps.core.errors import DomainError, ErrorCode

GROUPS = ("agent", "kiosk", "language", "hour", "day")
MAX_DAYS = 366  # a year, a leap year too: the CSV export's longest range


@dataclass(frozen=True)
class ReportRange:
    owner_id: int
    first_day: date
    last_day: date
    timezone: str
    business_id: int | None = None

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)

    @property
    def start(self) -> datetime:
        """The first day's local midnight (zoneinfo gives the right offset on a DST day)."""
        return datetime.combine(self.first_day, time.min, tzinfo=self.zone)

    @property
    def end(self) -> datetime:
        """Exclusive: the local midnight after the last day."""
        return datetime.combine(self.last_day + timedelta(days=1), time.min, tzinfo=self.zone)

    def days(self) -> list[date]:
        return [self.first_day + timedelta(days=n) for n in range((self.last_day - self.first_day).days + 1)]

    def session_scope(self, prefix: str = "") -> dict[str, object]:
        """ORM filters selecting the owner's sessions started in the range, from a model whose
        path to the session is `prefix` (e.g. "order__session__")."""
        scope = {
            f"{prefix}owner_id": self.owner_id,
            f"{prefix}created_at__gte": self.start,
            f"{prefix}created_at__lt": self.end,
        }
        if self.business_id is not None:
            scope[f"{prefix}business_id"] = self.business_id
        return scope


def check_days(first_day: date, last_day: date) -> None:
    if last_day < first_day:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "`to` is before `from`.", details={"to": ["Before `from`."]})
    if (last_day - first_day).days >= MAX_DAYS:
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            "A report covers at most {max_days} days.",
            params={"max_days": MAX_DAYS},
            details={"to": [f"At most {MAX_DAYS} days after `from`."]},
        )


def report_range(*, owner_id: int, first_day: date, last_day: date, business_id: int | None = None) -> ReportRange:
    """The range in the time zone of `business_id` (which must be the owner's: else 404), or of
    the owner's first business when none is named."""
    check_days(first_day, last_day)
    return ReportRange(owner_id, first_day, last_day, owner_time_zone(owner_id, business_id), business_id)


def owner_time_zone(owner_id: int, business_id: int | None = None) -> str:
    """The time zone of `business_id` (404 unless the owner's) or of the owner's first business."""
    businesses = Business.objects.filter(owner_id=owner_id).order_by("pk")
    if business_id is not None:
        businesses = businesses.filter(pk=business_id)
    zone_name = businesses.values_list("timezone", flat=True).first()
    if zone_name is None and business_id is not None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such business in your account.")
    return zone_name or "UTC"


def today_in(zone_name: str) -> date:
    return datetime.now(zoneinfo.ZoneInfo(zone_name)).date()
