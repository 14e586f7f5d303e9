"""The pairing code left for a newcomer's kiosk app (outside production only). A code is kept
as a hash, so seed_demo also writes the plain code to DEMO_KIOSK_CODE_FILE (var/demo-kiosk-app.json) for `/` to
show while it is unused and unexpired; `/` can make a new one for the first demo business."""

import json
from pathlib import Path
from typing import TypedDict

from django.conf import settings
from django.utils import timezone

from apps.accounts.models import Business
from apps.core.timefmt import iso_z
from apps.kiosks import services as kiosk_services
from apps.kiosks.models import Kiosk, PairingCode, hash_pairing_code

DEMO_BUSINESS, DEMO_OWNER = "Burger Barn", "Demo Burgers Co"  # seed_demo's first tenant


def _file() -> Path:
    return Path(settings.DEMO_KIOSK_CODE_FILE)


def remember(pairing: PairingCode, code: str) -> None:
    _file().parent.mkdir(parents=True, exist_ok=True)
    record = {"pairing_id": pairing.pk, "code": code, "business": pairing.business.name}
    _file().write_text(json.dumps({**record, "expires_at": iso_z(pairing.expires_at)}))


class KioskAppCode(TypedDict):
    pairing_id: int
    code: str
    business: str
    expires_at: str


def current() -> KioskAppCode | None:
    """The remembered code while it can still pair a kiosk: {code, business, expires_at}."""
    try:
        record: KioskAppCode = json.loads(_file().read_text())  # remember() wrote it
        pairing_id = int(record["pairing_id"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    usable = PairingCode.objects.filter(pk=pairing_id, used_at=None, expires_at__gt=timezone.now()).exists()
    return record if usable else None


def was_remembered(pairing: PairingCode) -> bool:
    """Whether the pairing code is the one left for the newcomer (used or not): its row and its
    code, so a row id a later database gives again is not taken for it."""
    try:
        record = json.loads(_file().read_text())
        return int(record["pairing_id"]) == pairing.pk and hash_pairing_code(str(record["code"])) == pairing.code_hash
    except (OSError, ValueError, KeyError, TypeError):
        return False


def is_newcomers_kiosk(kiosk: Kiosk) -> bool:
    """Whether the kiosk was paired with the newcomer's code (its latest pairing)."""
    used = PairingCode.objects.filter(kiosk=kiosk).order_by("-used_at").first()
    return used is not None and was_remembered(used)


def demo_business() -> Business | None:
    return Business.objects.filter(name=DEMO_BUSINESS, owner__name=DEMO_OWNER).first()


def renew() -> KioskAppCode | None:
    """A fresh code for the demo burger business (None without demo data)."""
    business = demo_business()
    if business is None:
        return None
    pairing, code = kiosk_services.pairing_code_create(business=business)
    remember(pairing, code)
    return current()
