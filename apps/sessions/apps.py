from django.apps import AppConfig


class SessionsConfig(AppConfig):
    name = "apps.sessions"
    label = "agent_sessions"  # django.contrib.sessions already owns the label "sessions"
    verbose_name = "Customer sessions"
