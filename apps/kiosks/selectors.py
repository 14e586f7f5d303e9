import functools
import hashlib
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypedDict, TypeVar

from django.core.cache import cache
from django.db import models
from django.db.models import QuerySet
from django.utils.crypto import constant_time_compare

from apps.accounts.models import Business
from apps.core.cache import Stamp
from apps.kiosks.models import Kiosk, PairingCode

# Kiosks poll every 2 s and idle ones beat every 30 s: their paired row is kept this long in the
# cache. Every change of what it holds (pair, unpair, rename, online/offline, the business's
# settings) emits an event whose subscriber forgets it (kiosks/device_cache.py), so revocation is
# immediate and the lifetime only bounds what a change made outside the services leaves stale.
# A model instance's concrete field values as JSON data, in field order (_plain_row).
PlainRow = list[str | int | float | bool | None]


class CachedRow(TypedDict):
    """A paired kiosk's cached credentials row: the kiosk and its business."""

    kiosk: PlainRow
    business: PlainRow


CREDENTIALS_CACHE_SECONDS = 120


# The cached row is plain data (each concrete field of the kiosk and its business), never a
# pickled model. Its key carries the version of that shape, made from the two models' field
# names and types: a deploy that adds, drops or retypes a field reads and writes new keys, so it
# never reads a row written in the old shape (old keys expire within CREDENTIALS_CACHE_SECONDS).
def _shape_version() -> str:
    fields = [f"{f.attname}:{f.get_internal_type()}" for m in (Kiosk, Business) for f in m._meta.concrete_fields]
    return hashlib.sha256(",".join(fields).encode()).hexdigest()[:12]


CREDENTIALS_SHAPE_VERSION = _shape_version()


def credentials_cache_key(device_id: uuid.UUID | None) -> str:
    return f"kiosk-credentials:{CREDENTIALS_SHAPE_VERSION}:{device_id}"


def _plain_row(instance: models.Model) -> PlainRow:
    """The instance's concrete field values as JSON data, in field order."""
    row: PlainRow = []
    for field in instance._meta.concrete_fields:
        value = field.value_from_object(instance)
        row.append(
            value if value is None or isinstance(value, (str, int, float, bool)) else field.value_to_string(instance)
        )
    return row


M = TypeVar("M", bound=models.Model)


def _converter(field: models.Field[Any, Any]) -> Callable[[Any], Any]:
    """How `_from_plain_row` turns a field's plain value back (the common types without
    Field.to_python's checks: this runs on every kiosk request)."""
    if isinstance(field, models.DateTimeField):
        return datetime.fromisoformat
    if isinstance(field, models.UUIDField):
        return uuid.UUID
    if isinstance(field, (models.CharField, models.TextField, models.IntegerField, models.BooleanField)):
        return lambda value: value
    return field.to_python


@functools.cache
def _columns(model: type[models.Model]) -> tuple[list[str], list[Callable[[Any], Any]]]:
    fields = model._meta.concrete_fields
    return [field.attname for field in fields], [_converter(field) for field in fields]


@functools.cache
def _column_index(model: type[models.Model], attname: str) -> int:
    return _columns(model)[0].index(attname)


def _from_plain_row(model: type[M], row: list[Any]) -> M:
    """The instance `_plain_row` described, as if loaded from the database (Model.from_db)."""
    names, converters = _columns(model)
    values = [None if value is None else convert(value) for convert, value in zip(converters, row, strict=True)]
    return model.from_db("default", names, values)


def _cached_row(kiosk: Kiosk) -> CachedRow:
    return {"kiosk": _plain_row(kiosk), "business": _plain_row(kiosk.business)}


def _kiosk_from_cached_row(row: CachedRow) -> Kiosk:
    kiosk = _from_plain_row(Kiosk, row["kiosk"])
    kiosk.business = _from_plain_row(Business, row["business"])
    return kiosk


def heartbeat_cache_key(device_id: uuid.UUID | None) -> str:
    """Present while the kiosk's last heartbeat write is recent (kiosks.services sets it)."""
    return f"kiosk-heartbeat:{device_id}"


@dataclass(frozen=True)
class DeviceCredentials:
    """The paired kiosk a request authenticated as: the row found in the cache (`cached_row`) or
    the kiosk read from the database (`loaded`). A cached row becomes model instances only when
    something asks for `kiosk`: a steady kiosk request needs no more than the kiosk's id and
    presence, and building the kiosk and its business was the largest single cost of the kiosk
    hot path (docs/scaling.md)."""

    cached_row: CachedRow | None
    loaded: Kiosk | None
    heartbeat_recent: bool  # no heartbeat write is due yet
    count: int | None = None  # the caller's counter after this request (see below)

    @functools.cached_property
    def kiosk(self) -> Kiosk:
        if self.loaded is not None:
            return self.loaded
        assert self.cached_row is not None  # credentials_from_cache sets one of the two
        return _kiosk_from_cached_row(self.cached_row)

    def _kiosk_value(self, attname: str) -> Any:
        built = self.loaded or self.__dict__.get("kiosk")
        if built is not None:
            return getattr(built, attname)
        assert self.cached_row is not None  # as in `kiosk`
        return self.cached_row["kiosk"][_column_index(Kiosk, attname)]

    @property
    def kiosk_id(self) -> int:
        return int(self._kiosk_value("id"))

    @property
    def heartbeat_due(self) -> bool:
        """Whether this request must record a heartbeat (kiosks.services.kiosk_record_heartbeat)."""
        return not self.heartbeat_recent or not self._kiosk_value("online")


def credentials_cache_keys(device_id: uuid.UUID) -> list[str]:
    """What every kiosk request reads from the cache: the paired row and the heartbeat marker."""
    return [credentials_cache_key(device_id), heartbeat_cache_key(device_id)]


def kiosk_for_device_credentials(*, device_id: uuid.UUID, token_hash: str) -> DeviceCredentials | None:
    """The paired kiosk that the device id and the hash of the presented token authenticate, or
    None (unknown, wrong or revoked). Kiosk requests read the same keys in the round trip of
    apps.kiosks.api.kiosk_request (which also counts the rate window) and continue with
    `credentials_from_cache`."""
    cached = cache.get_many(credentials_cache_keys(device_id))
    return credentials_from_cache(device_id=device_id, token_hash=token_hash, cached=cached, count=None)


# Every kiosk request notes when it was received (`heard_stamp`, set in its cache round trip), so
# the presence sweep decides "offline" from the last request actually received even though the
# row's `last_seen_at` is written at most every HEARTBEAT_WRITE_INTERVAL_SECONDS. Kept longer than
# the offline rule (90 s) with room for a late sweep.
HEARD_SECONDS = 300


def heard_cache_key(device_id: uuid.UUID | None, token_hash: str) -> str:
    """When a request presenting this device id and token hash was last received. Keyed by the
    presented token's hash: a request with a wrong token stamps a key the sweep never reads."""
    return f"kiosk-heard:{device_id}:{token_hash}"


def heard_stamp(device_id: uuid.UUID, token_hash: str) -> Stamp:
    return Stamp(heard_cache_key(device_id, token_hash), time.time(), HEARD_SECONDS)


def last_heard(kiosks: list[Kiosk]) -> dict[int, datetime]:
    """When each kiosk (by pk) last sent a request with its current token, as far as the cache
    still knows (nothing while Redis is away: every request is then written to the row)."""
    keys = {heard_cache_key(k.device_id, k.token_hash): k.pk for k in kiosks if k.device_id and k.token_hash}
    found = cache.get_many(list(keys)) if keys else {}
    return {
        keys[key]: datetime.fromtimestamp(value, tz=UTC)
        for key, value in found.items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }


def seen_as_heard(kiosks: Iterable[Kiosk]) -> list[Kiosk]:
    """The kiosks with `last_seen_at` at the last request received from each, for the screens and
    the owner API: the row is written at most every HEARTBEAT_WRITE_INTERVAL_SECONDS, while every
    request notes when it was heard (`heard_stamp`)."""
    kiosks = list(kiosks)
    heard = last_heard(kiosks)
    for kiosk in kiosks:
        at = heard.get(kiosk.pk)
        if at is not None and (kiosk.last_seen_at is None or at > kiosk.last_seen_at):
            kiosk.last_seen_at = at
    return kiosks


def heartbeat_due(kiosk: Kiosk, cached: dict[str, Any]) -> bool:
    """Whether a request of `kiosk` whose round trip found `cached` must write a heartbeat."""
    return heartbeat_cache_key(kiosk.device_id) not in cached or not kiosk.online


def credentials_from_cache(
    *, device_id: uuid.UUID, token_hash: str, cached: dict[str, Any], count: int | None
) -> DeviceCredentials | None:
    """`kiosk_for_device_credentials` after its round trip: `cached` holds what was found of
    `credentials_cache_keys`. Only a missing row reads the database (`credentials_need_database`)."""
    key = credentials_cache_key(device_id)
    heartbeat_recent = heartbeat_cache_key(device_id) in cached
    row = cached.get(key)
    if row is not None:
        if not constant_time_compare(row["kiosk"][_column_index(Kiosk, "token_hash")], token_hash):
            return None
        return DeviceCredentials(cached_row=row, loaded=None, heartbeat_recent=heartbeat_recent, count=count)
    kiosk = Kiosk.objects.select_related("business").filter(device_id=device_id, unpaired_at=None).first()
    if kiosk is None or not kiosk.token_hash:
        return None
    cache.set(key, _cached_row(kiosk), timeout=CREDENTIALS_CACHE_SECONDS)
    if not constant_time_compare(kiosk.token_hash, token_hash):
        return None
    return DeviceCredentials(cached_row=None, loaded=kiosk, heartbeat_recent=heartbeat_recent, count=count)


def credentials_need_database(*, device_id: uuid.UUID, cached: dict[str, Any]) -> bool:
    """Whether `credentials_from_cache` will read the database (async callers run it in a thread then)."""
    return credentials_cache_key(device_id) not in cached


def kiosk_profile(kiosk: Kiosk) -> Kiosk:
    """The kiosk with its business read now: the credentials cache may hold a business the owner
    has changed since (name, logo, colour, message)."""
    return Kiosk.objects.select_related("business").get(pk=kiosk.pk)


def pairing_code_of_owner(*, owner_id: int, pairing_id: int) -> PairingCode | None:
    """One of the owner's pairing codes (the kiosk it paired, if any), else None."""
    return PairingCode.objects.select_related("kiosk").filter(business__owner_id=owner_id, pk=pairing_id).first()


def kiosks_of_owner(owner_id: int) -> QuerySet[Kiosk]:
    """Every kiosk of the owner's businesses (paired or not), with its business."""
    return Kiosk.objects.select_related("business").filter(business__owner_id=owner_id)
