"""The Reports page's query: a preset or two days (in the business's time zone) and a grouping."""

from datetime import date, timedelta
from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from apps.reports.ranges import GROUPS, MAX_DAYS

PRESETS = [
    ("today", _("Today")),
    ("yesterday", _("Yesterday")),
    ("last_7", _("Last 7 days")),
    ("last_30", _("Last 30 days")),
    ("this_month", _("This month")),
    ("custom", _("Custom (the days below)")),
]
GROUP_LABELS = {
    "agent": _("Agent"),
    "kiosk": _("Kiosk"),
    "language": _("Customer language"),
    "hour": _("Hour of day"),
    "day": _("Day"),
}
DEFAULT_GROUP = "day"


def preset_days(preset: str, today: date) -> tuple[date, date]:
    if preset == "yesterday":
        return today - timedelta(days=1), today - timedelta(days=1)
    if preset == "last_7":
        return today - timedelta(days=6), today
    if preset == "last_30":
        return today - timedelta(days=29), today
    if preset == "this_month":
        return today.replace(day=1), today
    return today, today


class ReportQueryForm(forms.Form):
    preset = forms.ChoiceField(choices=PRESETS, required=False, label=_("Range"))
    date_from = forms.DateField(required=False, label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(required=False, label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))
    group_by = forms.ChoiceField(
        choices=[(name, GROUP_LABELS[name]) for name in GROUPS], required=False, label=_("Group by")
    )

    def days(self, today: date) -> tuple[date, date]:
        """The chosen days (call after is_valid); a custom range needs both days."""
        data = self.cleaned_data
        if data.get("preset") == "custom":
            return data["date_from"], data["date_to"]
        return preset_days(data.get("preset") or "last_7", today)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("preset") == "custom":
            first, last = data.get("date_from"), data.get("date_to")
            if first is None or last is None:
                raise forms.ValidationError(_("A custom range needs both days."))
            if last < first:
                self.add_error("date_to", _("The last day is before the first."))
            elif (last - first).days >= MAX_DAYS:
                self.add_error("date_to", format_lazy(_("A report covers at most {days} days."), days=MAX_DAYS))
        return data
