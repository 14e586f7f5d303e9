from collections.abc import Sequence

from django.apps import AppConfig
from django.core import checks
from django.core.exceptions import ImproperlyConfigured

from apps.core import jobs, secret_box
from apps.webhooks import transport


class WebhooksConfig(AppConfig):
    name = "apps.webhooks"
    label = "webhooks"

    def ready(self) -> None:
        checks.register(_secret_keys_check)
        jobs.on_stop(transport.stop_watchdog)  # the delivery watchdog thread ends with the jobs


def _secret_keys_check(app_configs: Sequence[AppConfig] | None, **kwargs: object) -> list[checks.CheckMessage]:
    """Malformed WEBHOOK_SECRET_KEYS are reported by `manage.py check` and before migrate, not
    at the first subscription or delivery."""
    try:
        secret_box.box()
    except ImproperlyConfigured as exc:
        return [checks.Error(str(exc), id="webhooks.E001")]
    return []
