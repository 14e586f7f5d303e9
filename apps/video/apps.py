from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class VideoConfig(AppConfig):
    name = "apps.video"
    label = "video"
    verbose_name = "Video tokens"

    def ready(self) -> None:
        checks.register(check_video_credentials)


def check_video_credentials(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """The provider issues app ids and certificates as 32 hexadecimal characters and refuses
    tokens built from anything else: catch a mistyped secret at start-up, not at the first call."""
    from apps.video.tokens import is_provider_key

    return [
        checks.Error(f"{name} must be 32 hexadecimal characters, as the video provider issues it.", id="video.E001")
        for name in ("VIDEO_APP_ID", "VIDEO_APP_CERTIFICATE")
        if not is_provider_key(getattr(settings, name, ""))
    ]
