from django.apps import AppConfig


class RealtimeHttpConfig(AppConfig):
    name = "apps.realtime_http"
    label = "realtime_http"
    verbose_name = "Real-time HTTP surface (channel auth, Pusher HTTP API)"

    def ready(self) -> None:
        # The call channel's members are checked at every subscription (apps/realtime/membership.py);
        # the rule reads the sessions, so this surface, which may import domain apps, registers it.
        from apps.realtime import membership
        from apps.realtime.channels import call_channel
        from apps.realtime_http import access

        membership.register(call_channel.prefix, access.call_member_now)
