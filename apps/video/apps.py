from collections.abc import Sequence

from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class VideoConfig(AppConfig):
    name = "apps.video"
    label = "video"
    verbose_name = "Video tokens"

    def ready(self) -> None:
        checks.register(check_video_credentials)
        checks.register(check_video_provider)


def check_video_credentials(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: object
) -> list[checks.CheckMessage]:
    """The provider issues app ids and certificates as 32 hexadecimal characters and refuses
    tokens built from anything else: catch a mistyped secret at start-up, not at the first call."""
    from apps.video.tokens import is_provider_key

    return [
        checks.Error(f"{name} must be 32 hexadecimal characters, as the video provider issues it.", id="video.E001")
        for name in ("VIDEO_APP_ID", "VIDEO_APP_CERTIFICATE")
        if not is_provider_key(getattr(settings, name, ""))
    ]


def check_video_provider(app_configs: Sequence[AppConfig] | None = None, **kwargs: object) -> list[checks.CheckMessage]:
    """A provider we do not know, or TURN servers without the secret their credentials are
    derived from, would only show at the first call: say it at start-up."""
    errors: list[checks.CheckMessage] = []
    if settings.VIDEO_PROVIDER not in settings.VIDEO_PROVIDERS:
        errors.append(
            checks.Error(
                f"VIDEO_PROVIDER must be one of {', '.join(settings.VIDEO_PROVIDERS)}, "
                f"not {settings.VIDEO_PROVIDER!r}.",
                id="video.E002",
            )
        )
    if settings.VIDEO_TURN_URLS and not settings.VIDEO_TURN_SECRET:
        errors.append(
            checks.Error(
                "VIDEO_TURN_URLS is set without VIDEO_TURN_SECRET (coturn's static-auth-secret).", id="video.E003"
            )
        )
    return errors
