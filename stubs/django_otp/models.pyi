from datetime import datetime
from typing import Any, TypeVar

from django.db import models

_D = TypeVar("_D", bound=Device)

class DeviceManager(models.Manager[_D]):
    def devices_for_user(self, user: models.Model, confirmed: bool | None = None) -> models.QuerySet[_D]: ...

class Device(models.Model):
    # A ForeignKey to settings.AUTH_USER_MODEL, which a stub cannot name.
    user: models.ForeignKey[Any, Any]
    user_id: int
    name: models.CharField[str, str]
    confirmed: models.BooleanField[bool, bool]
    @property
    def persistent_id(self) -> str: ...
    def is_interactive(self) -> bool: ...
    def verify_is_allowed(self) -> tuple[bool, dict[str, Any] | None]: ...
    def verify_token(self, token: str) -> bool: ...

class ThrottlingMixin(models.Model):
    throttling_failure_timestamp: models.DateTimeField[datetime | None, datetime | None]
    throttling_failure_count: models.PositiveIntegerField[int, int]
    def verify_is_allowed(self) -> tuple[bool, dict[str, Any] | None]: ...
    def throttle_reset(self, commit: bool = True) -> None: ...
    def throttle_increment(self, commit: bool = True) -> None: ...
    def get_throttle_factor(self) -> int: ...

class TimestampMixin(models.Model):
    created_at: models.DateTimeField[datetime | None, datetime | None]
    last_used_at: models.DateTimeField[datetime | None, datetime | None]
    def set_last_used_timestamp(self, commit: bool = True) -> None: ...
