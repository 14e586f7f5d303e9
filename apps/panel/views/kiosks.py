"""Kiosks: list with presence, pairing codes (shown once, with their expiry), rename, unpair."""

from django.contrib import messages
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from apps.core.errors import DomainError
from apps.core.timefmt import iso_z
from apps.kiosks import selectors as kiosk_selectors
from apps.kiosks import services as kiosk_services
from apps.panel.access import ANY_ROLE, owned_or_404, panel_page
from apps.panel.forms import BusinessChoiceForm, KioskRenameForm
from apps.panel.pages import businesses_of, put_once, render_page, report_error, take_once

OWNER_PATH = "business__owner"


def _kiosks(request):
    return kiosk_selectors.kiosks_of_owner(request.user.owner_id)


@panel_page(ANY_ROLE)
def kiosk_list(request):
    kiosks = _kiosks(request).filter(unpaired_at=None).order_by("business__name", "name", "pk")
    context = {
        "kiosks": kiosks,
        "pairing": take_once(request, "pairing-code"),
        "business_form": BusinessChoiceForm(businesses=businesses_of(request)),
    }
    return render_page(request, "panel/kiosks.html", context, section="kiosks")


@panel_page(ANY_ROLE)
@require_POST
def pairing_code_create(request):
    form = BusinessChoiceForm(request.POST, businesses=businesses_of(request))
    if not form.is_valid():
        messages.error(request, "Choose one of your businesses.")
        return redirect("panel:kiosks")
    business = form.cleaned_data["business"]
    pairing_code, code = kiosk_services.pairing_code_create(business=business)
    put_once(
        request,
        "pairing-code",
        {"code": code, "expires_at": iso_z(pairing_code.expires_at), "business": business.name},
    )
    return redirect("panel:kiosks")


@panel_page(ANY_ROLE)
@require_POST
def kiosk_rename(request, kiosk_id: int):
    kiosk = owned_or_404(_kiosks(request), request, OWNER_PATH, pk=kiosk_id, unpaired_at=None)
    form = KioskRenameForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the kiosk a name (200 characters at most).")
        return redirect("panel:kiosks")
    try:
        kiosk_services.kiosk_rename(kiosk=kiosk, **form.cleaned_data)
    except DomainError as exc:
        report_error(request, exc)
    else:
        messages.success(request, f"Kiosk renamed to {kiosk.name}.")
    return redirect("panel:kiosks")


@panel_page(ANY_ROLE)
@require_POST
def kiosk_unpair(request, kiosk_id: int):
    kiosk = owned_or_404(_kiosks(request), request, OWNER_PATH, pk=kiosk_id, unpaired_at=None)
    kiosk_services.kiosk_unpair(kiosk=kiosk)
    messages.success(request, f"{kiosk.name} is unpaired: its device token no longer works.")
    return redirect("panel:kiosks")
