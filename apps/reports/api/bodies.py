"""The reports' query and bodies (token API and owner API share them; the OpenAPI schema too)."""

from rest_framework import serializers

from apps.reports.ranges import GROUPS

_SHARE = "A fraction 0..1 (4 decimals), null when its denominator is 0."
_SECONDS = "Seconds (1 decimal), null when no session qualifies."


class ReportQueryIn(serializers.Serializer[None]):
    locals()["from"] = serializers.DateField(help_text="First day (YYYY-MM-DD) in the business's time zone.")
    to = serializers.DateField(help_text="Last day, included (at most 366 days after `from`).")
    business = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, required=False, help_text="One business (and its time zone)."
    )


class SessionReportQueryIn(ReportQueryIn):
    group_by = serializers.ChoiceField(choices=GROUPS, default="day")


class MetricsOut(serializers.Serializer[None]):
    """Every metric of docs/reports.md, same names as the panel."""

    sessions_started = serializers.IntegerField()
    sessions_answered = serializers.IntegerField()
    answer_seconds_p50 = serializers.FloatField(allow_null=True, help_text=_SECONDS)
    answer_seconds_p90 = serializers.FloatField(allow_null=True, help_text=_SECONDS)
    answered_within_30s_share = serializers.FloatField(allow_null=True, help_text=_SHARE)
    abandoned_waiting = serializers.IntegerField()
    abandoned_after_answer = serializers.IntegerField()
    handle_seconds_avg = serializers.FloatField(allow_null=True, help_text=_SECONDS)
    handle_seconds_p90 = serializers.FloatField(allow_null=True, help_text=_SECONDS)
    transfers = serializers.IntegerField()
    paid_orders = serializers.IntegerField()
    conversion = serializers.FloatField(allow_null=True, help_text=_SHARE)
    revenue_cents = serializers.IntegerField()
    average_order_cents = serializers.IntegerField(allow_null=True)
    items_per_order = serializers.FloatField(allow_null=True)
    refunds_cents = serializers.IntegerField()
    self_service_orders = serializers.IntegerField()
    self_service_share = serializers.FloatField(allow_null=True, help_text=_SHARE)
    offers = serializers.IntegerField()
    offers_missed = serializers.IntegerField()
    offer_acceptance = serializers.FloatField(allow_null=True, help_text=_SHARE)


class ReportKeyOut(serializers.Serializer[None]):
    id = serializers.JSONField(help_text="Agent or kiosk id, locale, hour 0-23 or day; null: no agent.")
    name = serializers.CharField()


class SessionReportRowOut(MetricsOut):
    key = ReportKeyOut()


class AgentBreakOut(serializers.Serializer[None]):
    agent = ReportKeyOut()
    break_seconds = serializers.IntegerField(
        help_text="Whole seconds on break within the range (an open break: to now)."
    )


class AgentLoadOut(serializers.Serializer[None]):
    agent = ReportKeyOut()
    signed_in_seconds = serializers.IntegerField(help_text="Whole seconds signed in within the range.")
    sessions_answered = serializers.IntegerField(help_text="Sessions it accepted within the range.")
    sessions_per_hour = serializers.FloatField(
        allow_null=True, help_text="sessions_answered per signed-in hour (null: never signed in)."
    )
    sessions_held_avg = serializers.FloatField(
        allow_null=True, help_text="Concurrency: the average number of sessions held while signed in."
    )
    serving_seconds = serializers.IntegerField(help_text="Whole seconds holding at least one session.")
    video_seconds = serializers.IntegerField(help_text="Whole seconds in a video conversation.")
    video_share = serializers.FloatField(allow_null=True, help_text="video_seconds / serving_seconds.")


class SessionReportOut(serializers.Serializer[None]):
    locals()["from"] = serializers.DateField()
    to = serializers.DateField()
    group_by = serializers.ChoiceField(choices=GROUPS)
    timezone = serializers.CharField(help_text="The IANA time zone the days and hours are in.")
    rows = SessionReportRowOut(many=True)
    totals = MetricsOut()
    agent_breaks = AgentBreakOut(many=True, help_text="Per agent: time on break in the range (any group_by).")
    agent_load = AgentLoadOut(
        many=True, help_text="Per agent: time signed in, sessions held at once, time in video (any group_by)."
    )


class NamedOut(serializers.Serializer[None]):
    id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()


class ItemSalesOut(serializers.Serializer[None]):
    item = NamedOut()
    quantity = serializers.IntegerField()
    revenue_cents = serializers.IntegerField(help_text="Quantity x unit price, before tax.")


class OptionSalesOut(serializers.Serializer[None]):
    group = serializers.CharField()
    option = NamedOut()
    quantity = serializers.IntegerField(help_text="Items sold with this option.")
    revenue_cents = serializers.IntegerField(help_text="Sales of the lines carrying this option.")


class ItemReportOut(serializers.Serializer[None]):
    locals()["from"] = serializers.DateField()
    to = serializers.DateField()
    timezone = serializers.CharField()
    items = ItemSalesOut(many=True)
    options = OptionSalesOut(many=True)
