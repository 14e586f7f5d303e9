"""Kiosks: list with presence and card readers, pairing codes (shown once, with their expiry),
rename, unpair, and a kiosk's card reader registered, replaced or removed (the owner API's
service functions)."""

from typing import Any, TypedDict

from django.conf import settings
from django.contrib import messages
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from apps.billing import selectors as billing_selectors
from apps.billing.services import readers as reader_services
from apps.core.timefmt import iso_z
from apps.kiosks import selectors as kiosk_selectors
from apps.kiosks import services as kiosk_services
from apps.kiosks.models import Kiosk, PairingCode
from apps.panel.access import ANY_ROLE, PanelRequest, owned_or_404, panel_page
from apps.panel.forms import BusinessChoiceForm, KioskMountForm, KioskReaderForm, KioskRenameForm, NoFieldsForm
from apps.panel.pages import businesses_of, form_action, object_action, put_once, render_page, take_once

OWNER_PATH = "business__owner"
RENAME_INVALID = gettext_lazy("Give the kiosk a name (200 characters at most).")
READER_INVALID = gettext_lazy("Enter the reader's registration code (100 characters at most).")
MOUNT_INVALID = gettext_lazy(
    "Enter the screen's bottom edge above the floor (0 to 2,500 mm) and its visible height (50 to 2,500 mm)."
)


class PairingState(TypedDict):
    state: str  # unused, used or expired
    kiosk: str | None  # the name of the kiosk it paired


def _kiosks(request: PanelRequest) -> QuerySet[Kiosk]:
    return kiosk_selectors.kiosks_of_owner(request.user.owner_id)


def _kiosk(request: PanelRequest, kiosk_id: int) -> Kiosk:
    return owned_or_404(_kiosks(request), request, OWNER_PATH, pk=kiosk_id, unpaired_at=None)


def _to_kiosks(kiosk: Kiosk) -> HttpResponseRedirect:
    return redirect("panel:kiosks")


def _pairing_state(pairing_code: PairingCode) -> PairingState:
    """unused, used (with the kiosk it paired) or expired."""
    if pairing_code.used_at is not None:
        return {"state": "used", "kiosk": pairing_code.kiosk.name if pairing_code.kiosk else None}
    if pairing_code.expires_at <= timezone.now():
        return {"state": "expired", "kiosk": None}
    return {"state": "unused", "kiosk": None}


@panel_page(ANY_ROLE)
def kiosk_list(request: PanelRequest) -> HttpResponse:
    """The kiosks, and a pairing code just generated: shown once, and only while it is unused and
    unexpired (the page also asks `pairing_code_state` and takes the code away once it is used)."""
    kiosks = _kiosks(request).filter(unpaired_at=None).order_by("business__name", "name", "pk")
    pairing = take_once(request, "pairing-code")
    if isinstance(pairing, dict):
        found = kiosk_selectors.pairing_code_of_owner(
            owner_id=request.user.owner_id, pairing_id=int(pairing.get("id", 0))
        )
        if found is None or _pairing_state(found)["state"] != "unused":
            pairing = None
    listed = kiosk_selectors.seen_as_heard(kiosks)
    readers = billing_selectors.readers_of_kiosks(request.user.owner_id, [kiosk.pk for kiosk in listed])
    context = {
        "kiosks": listed,
        "demo_readers": settings.DEMO_PROCESSOR,  # every reader is simulated: link its demo page
        "rows": [{"kiosk": kiosk, "reader": readers.get(kiosk.pk)} for kiosk in listed],
        "pairing": pairing,
        "business_form": BusinessChoiceForm(businesses=businesses_of(request)),
    }
    return render_page(request, "panel/kiosks.html", context, section="kiosks")


@panel_page(ANY_ROLE)
@require_safe
def pairing_code_state(request: PanelRequest, pairing_id: int) -> JsonResponse:
    """Whether a pairing code the owner generated is still unused (the Kiosks page polls this
    while it shows the code)."""
    found = kiosk_selectors.pairing_code_of_owner(owner_id=request.user.owner_id, pairing_id=pairing_id)
    if found is None:
        return JsonResponse({"error": {"code": "NOT_FOUND", "message": "No such pairing code."}}, status=404)
    return JsonResponse(_pairing_state(found))


@panel_page(ANY_ROLE)
@require_POST
def pairing_code_create(request: PanelRequest) -> HttpResponseRedirect:
    form = BusinessChoiceForm(request.POST, businesses=businesses_of(request))
    if not form.is_valid():
        messages.error(request, _("Choose one of your businesses."))
        return redirect("panel:kiosks")
    business = form.cleaned_data["business"]
    pairing_code, code = kiosk_services.pairing_code_create(business=business)
    put_once(
        request,
        "pairing-code",
        {
            "id": pairing_code.pk,
            "code": code,
            "expires_at": iso_z(pairing_code.expires_at),
            "business": business.name,
        },
    )
    return redirect("panel:kiosks")


@form_action(_kiosk, _to_kiosks, KioskRenameForm, access=ANY_ROLE, id_name="kiosk_id", invalid=RENAME_INVALID)
def kiosk_rename(request: PanelRequest, kiosk: Kiosk, data: dict[str, Any]) -> str:
    kiosk_services.kiosk_rename(kiosk=kiosk, **data)
    return _("Kiosk renamed to {name}.").format(name=kiosk.name)


@form_action(_kiosk, _to_kiosks, KioskMountForm, access=ANY_ROLE, id_name="kiosk_id", invalid=MOUNT_INVALID)
def kiosk_mount(request: PanelRequest, kiosk: Kiosk, data: dict[str, Any]) -> str:
    """Where the screen is mounted: accessible mode keeps the controls within reach from it."""
    kiosk_services.kiosk_set_mount(kiosk=kiosk, **data)
    reach = kiosk_services.reach_fraction(kiosk)
    if reach <= 0:
        return _("Saved. The screen's bottom edge is above 1,220 mm: no control of {name} is within reach.").format(
            name=kiosk.name
        )
    return _("Saved: accessible mode keeps the controls of {name} in the lowest {percent} % of its screen.").format(
        name=kiosk.name, percent=round(min(reach, 1) * 100)
    )


@object_action(_kiosk, _to_kiosks, access=ANY_ROLE, id_name="kiosk_id")
def kiosk_unpair(kiosk: Kiosk) -> str:
    kiosk_services.kiosk_unpair(kiosk=kiosk)
    return _("{name} is unpaired: its device token no longer works.").format(name=kiosk.name)


@form_action(_kiosk, _to_kiosks, KioskReaderForm, access=ANY_ROLE, id_name="kiosk_id", invalid=READER_INVALID)
def kiosk_reader_register(request: PanelRequest, kiosk: Kiosk, data: dict[str, Any]) -> str:
    """Register the kiosk's card reader, or replace the one it has (which is unregistered)."""
    reader = reader_services.reader_register(
        kiosk=kiosk, registration_code=data["registration_code"].strip(), label=data["label"] or kiosk.name[:100]
    )
    return _("Card reader {label} registered for {name}.").format(label=reader.label, name=kiosk.name)


@form_action(_kiosk, _to_kiosks, NoFieldsForm, access=ANY_ROLE, id_name="kiosk_id", invalid="")
def kiosk_reader_remove(request: PanelRequest, kiosk: Kiosk, data: dict[str, Any]) -> str:
    reader_services.reader_remove(kiosk=kiosk)
    return _("{name} has no card reader now: it takes cards on screen.").format(name=kiosk.name)
