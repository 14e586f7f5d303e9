from django.apps import AppConfig


class RealtimeConfig(AppConfig):
    name = "apps.realtime"
    label = "realtime"
    verbose_name = "Real-time (Pusher protocol)"

    def ready(self) -> None:
        # The call channel's members are checked at every subscription (membership.py); the rule
        # reads the sessions, so it lives in the realtime surface, which may import domain apps.
        from apps.realtime import membership
        from apps.realtime.api import access

        membership.register(access.CALL_PREFIX, access.call_member_now)
