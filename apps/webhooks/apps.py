from django.apps import AppConfig
from django.core import checks
from django.core.exceptions import ImproperlyConfigured


class WebhooksConfig(AppConfig):
    name = "apps.webhooks"
    label = "webhooks"

    def ready(self) -> None:
        checks.register(_secret_keys_check)


def _secret_keys_check(app_configs, **kwargs) -> list[checks.CheckMessage]:
    """Malformed WEBHOOK_SECRET_KEYS are reported by `manage.py check` and before migrate, not
    at the first subscription or delivery."""
    from apps.webhooks import secret_box

    try:
        secret_box.box()
    except ImproperlyConfigured as exc:
        return [checks.Error(str(exc), id="webhooks.E001")]
    return []
