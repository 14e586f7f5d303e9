"""State changes for kiosks: pairing codes, pairing, unpairing, heartbeats and presence. Each
change that makes the device's cached credentials stale emits an event (kiosks/domain_events.py);
config/event_subscribers.py lists what each causes."""

import secrets
import uuid
from datetime import timedelta

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.accounts.models import Business
from apps.accounts.suspension import ensure_owner_not_suspended
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks import pairing_guard, selectors
from apps.kiosks.domain_events import KioskCameOnline, KioskPaired, KioskRenamed, KioskUnpaired, KioskWentOffline
from apps.kiosks.models import REACH_MM, Kiosk, PairingCode, hash_device_token, hash_pairing_code

PAIRING_CODE_TTL = timedelta(minutes=15)
# Heartbeats are written at most this often per kiosk: an idle kiosk beats every 30 s, so its row
# is written every other beat. Offline (90 s) is decided from when a request was last heard, not
# from the row (`kiosks_mark_offline`), and the screens show that time (selectors.seen_as_heard).
HEARTBEAT_WRITE_INTERVAL_SECONDS = 45


def pairing_code_create(*, business: Business) -> tuple[PairingCode, str]:
    """A fresh 6-digit code for `business`; the plaintext is returned only here."""
    now = timezone.now()
    for _ in range(50):
        code = f"{secrets.randbelow(10**6):06d}"
        code_hash = hash_pairing_code(code)
        live = PairingCode.objects.filter(code_hash=code_hash, used_at=None, expires_at__gt=now)
        if not live.exists():
            break
    pairing_code = PairingCode.objects.create(
        business=business, code_hash=code_hash, created_at=now, expires_at=now + PAIRING_CODE_TTL
    )
    return pairing_code, code


def kiosk_pair(*, code: str, device_id: uuid.UUID, device_name: str) -> tuple[Kiosk, str]:
    """Consume a pairing code and issue the device token (returned only here).

    Re-pairing a device of the same owner replaces its token; a device still paired to
    another owner is refused, so nobody can unpair someone else's kiosk with their own code.
    A suspended owner's codes pair nothing (403 OWNER_SUSPENDED).
    """
    now = timezone.now()
    token = secrets.token_urlsafe(32)
    pairing_guard.ensure_allowed()  # wrong guesses from every address (apps/kiosks/pairing_guard.py)
    try:
        with transaction.atomic():
            pairing_code = (
                PairingCode.objects.select_for_update()
                .select_related("business")
                .filter(code_hash=hash_pairing_code(code))
                .order_by("-created_at")
                .first()
            )
            if pairing_code is None:
                pairing_guard.record_failure()
                raise DomainError(ErrorCode.PAIRING_CODE_INVALID, "This pairing code does not exist.")
            business = pairing_code.business
            pairing_guard.ensure_owner_allowed(business.owner_id)
            if pairing_code.used_at is not None:
                pairing_guard.record_failure(business.owner_id)
                raise DomainError(ErrorCode.PAIRING_CODE_ALREADY_USED, "This pairing code was already used.")
            if pairing_code.expires_at <= now:
                pairing_guard.record_failure(business.owner_id)
                raise DomainError(ErrorCode.PAIRING_CODE_EXPIRED, "This pairing code expired; generate a new one.")
            ensure_owner_not_suspended(business.owner_id)  # the code stays unused for after reinstating
            kiosk = Kiosk.objects.select_for_update().filter(device_id=device_id, unpaired_at=None).first()
            if kiosk is not None and kiosk.business.owner_id != business.owner_id:
                raise DomainError(
                    ErrorCode.DEVICE_ALREADY_PAIRED, "This device is paired to another account; unpair it there first."
                )
            if kiosk is None:
                kiosk = Kiosk(device_id=device_id)
            kiosk.business = business
            kiosk.name = device_name
            kiosk.token_hash = hash_device_token(token)
            kiosk.paired_at = now
            kiosk.online = True
            kiosk.last_seen_at = now
            kiosk.save()
            pairing_code.used_at = now
            pairing_code.kiosk = kiosk
            pairing_code.save(update_fields=["used_at", "kiosk"])
            events.emit(KioskPaired(kiosk))  # a re-paired device's old token must stop at once
    except IntegrityError as exc:  # a concurrent pairing of the same device won
        raise DomainError(ErrorCode.DEVICE_ALREADY_PAIRED, "This device was paired by another request.") from exc
    return kiosk, token


def kiosk_unpair(*, kiosk: Kiosk) -> None:
    """Revoke the device token at once: the next request with it answers 401."""
    with transaction.atomic():
        Kiosk.objects.filter(pk=kiosk.pk).update(unpaired_at=timezone.now(), token_hash="", online=False)
        events.emit(KioskUnpaired(kiosk))


def kiosk_record_heartbeat(*, kiosk: Kiosk) -> None:
    """Note that the kiosk is alive. Writes at most once per HEARTBEAT_WRITE_INTERVAL_SECONDS
    per kiosk; an offline kiosk comes back online at once (`kiosk.online`)."""
    now = timezone.now()
    if kiosk.online:
        if not cache.add(selectors.heartbeat_cache_key(kiosk.device_id), 1, timeout=HEARTBEAT_WRITE_INTERVAL_SECONDS):
            return
        Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=now)
        kiosk.last_seen_at = now
        return
    with transaction.atomic():
        came_online = Kiosk.objects.filter(pk=kiosk.pk, online=False).update(online=True, last_seen_at=now)
        if came_online:
            events.emit(KioskCameOnline(kiosk, at=now))  # forgets the cached offline row
    kiosk.online, kiosk.last_seen_at = True, now
    cache.set(selectors.heartbeat_cache_key(kiosk.device_id), 1, timeout=HEARTBEAT_WRITE_INTERVAL_SECONDS)


OFFLINE_AFTER = timedelta(seconds=90)


def kiosks_mark_offline() -> int:
    """The presence sweep: kiosks silent for more than 90 s go offline, each exactly once per
    outage (the conditional UPDATE decides it, even with two sweeps running at once). Silent
    means no request received: the row's `last_seen_at` is written at most every
    HEARTBEAT_WRITE_INTERVAL_SECONDS, so a candidate's last request is also looked up where
    every request notes it (selectors.last_heard); a row found behind it is brought up to date."""
    cutoff = timezone.now() - OFFLINE_AFTER
    marked = 0
    candidates = list(
        Kiosk.objects.filter(online=True, unpaired_at=None, last_seen_at__lt=cutoff).select_related("business")
    )
    heard = selectors.last_heard(candidates)
    for kiosk in candidates:
        last = max(seen for seen in (kiosk.last_seen_at, heard.get(kiosk.pk)) if seen is not None)
        if last >= cutoff:
            Kiosk.objects.filter(pk=kiosk.pk, last_seen_at__lt=last).update(last_seen_at=last)
            continue
        with transaction.atomic():
            if not Kiosk.objects.filter(pk=kiosk.pk, online=True, last_seen_at__lt=cutoff).update(online=False):
                continue
            events.emit(KioskWentOffline(kiosk, at=timezone.now(), last_seen_at=last))
        marked += 1
    return marked


def pairing_codes_purge() -> int:
    """Expired or used pairing codes older than a day are of no further use."""
    deleted, _ = PairingCode.objects.filter(expires_at__lt=timezone.now() - timedelta(days=1)).delete()
    return deleted


def kiosk_rename(*, kiosk: Kiosk, name: str, location: str) -> Kiosk:
    """The owner's label for a kiosk (shown to agents and in webhooks); the device keeps its token."""
    name, location = name.strip(), location.strip()
    if not name:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "The kiosk is invalid.", details={"name": ["Enter a name."]})
    with transaction.atomic():
        Kiosk.objects.filter(pk=kiosk.pk).update(name=name[:200], location=location[:200])
        events.emit(KioskRenamed(kiosk))
    kiosk.name, kiosk.location = name[:200], location[:200]
    return kiosk


MOUNT_LIMITS_MM = {"mount_height_mm": (0, 2500), "screen_height_mm": (50, 2500)}


def kiosk_set_mount(*, kiosk: Kiosk, mount_height_mm: int, screen_height_mm: int) -> Kiosk:
    """Where the kiosk's screen is mounted (its bottom edge from the floor, its visible height):
    accessible mode keeps every control below the reach line these give (GET /kiosks/me)."""
    given = {"mount_height_mm": mount_height_mm, "screen_height_mm": screen_height_mm}
    problems = {
        name: [f"Enter a height from {low} to {high} mm."]
        for name, (low, high) in MOUNT_LIMITS_MM.items()
        if not low <= given[name] <= high
    }
    if problems:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "The kiosk is invalid.", details=problems)
    Kiosk.objects.filter(pk=kiosk.pk).update(**given)
    kiosk.mount_height_mm, kiosk.screen_height_mm = mount_height_mm, screen_height_mm
    return kiosk


def reach_fraction(kiosk: Kiosk) -> float:
    """The part of the screen, from its bottom, below the reach line (more than 1: all of it);
    the kiosk app works it out the same way (static/kiosk/access.js reachFraction)."""
    return (REACH_MM - kiosk.mount_height_mm) / kiosk.screen_height_mm
