"""Displays (owners and managers): the kitchen display and the order board's links. Creating one
makes a display token for one business (shown once, inside the link, then only its hash is
kept); revoking it signs that screen out at its next request."""

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from apps.core.errors import DomainError
from apps.displays import selectors as display_selectors
from apps.displays import services as display_services
from apps.displays.models import DisplayKind
from apps.orders import selectors as order_selectors
from apps.orders import services as order_services
from apps.panel.access import PanelRequest, panel_page
from apps.panel.forms import BusinessChoiceForm
from apps.panel.labels import CHOICES
from apps.panel.pages import businesses_of, error_text, put_once, render_page, take_once

NEW_DISPLAY = "display-link"


class DisplayCreateForm(BusinessChoiceForm):
    kind = forms.ChoiceField(
        choices=[(code, CHOICES["display_kind"].get(code, label)) for code, label in DisplayKind.choices],
        label=gettext_lazy("Screen"),
    )
    name = forms.CharField(
        max_length=100,
        label=gettext_lazy("Name"),
        help_text=gettext_lazy("Where the screen is, e.g. “Grill” or “Counter”."),
    )
    ready_minutes = forms.IntegerField(
        min_value=1,
        max_value=1440,
        initial=10,
        label=gettext_lazy("Board: ready numbers leave after (minutes)"),
        help_text=gettext_lazy("Completed orders leave at once; a ready number not collected leaves after this."),
    )


@panel_page()
def display_list(request: PanelRequest) -> HttpResponseBase:
    form = DisplayCreateForm(request.POST or None, businesses=businesses_of(request))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            token, raw = display_services.display_token_create(
                business=data["business"],
                kind=data["kind"],
                name=data["name"],
                ready_seconds=data["ready_minutes"] * 60,
                created_by=request.user,
            )
        except DomainError as exc:
            form.add_error(None, error_text(exc))
        else:
            link = request.build_absolute_uri(f"/{token.kind}/#token={raw}")
            put_once(request, NEW_DISPLAY, {"name": token.name, "kind": token.get_kind_display(), "link": link})
            return redirect("panel:displays")
    context = {
        "displays": display_selectors.owner_tokens(request.user.owner_id),
        "form": form,
        "new_display": take_once(request, NEW_DISPLAY),
        "order_settings": [
            (business, order_selectors.order_settings_of(business.pk)) for business in businesses_of(request)
        ],
    }
    return render_page(request, "panel/displays.html", context, section="displays")


@panel_page()
@require_POST
def display_revoke(request: PanelRequest, display_id: int) -> HttpResponseRedirect:
    token = display_selectors.owner_tokens(request.user.owner_id).filter(pk=display_id).first()
    if token is None:
        raise Http404("No such display in your account.")
    display_services.display_token_revoke(owner_id=request.user.owner_id, token_id=token.pk)
    messages.success(
        request, _("Display “{name}” revoked: that screen is signed out at its next request.").format(name=token.name)
    )
    return redirect("panel:displays")


@panel_page()
@require_POST
def order_settings(request: PanelRequest) -> HttpResponseRedirect:
    """A business's order settings: whether its kiosks ask eat in or take away before paying (on
    by default), whether a mailed receipt's address is kept for a refund's update (off)."""
    chosen = request.POST.get("business", "")
    if not chosen.isdigit():
        raise Http404("No such business in your account.")
    business = businesses_of(request).filter(pk=int(chosen)).first()
    if business is None:
        raise Http404("No such business in your account.")
    ask, keep = request.POST.get("ask_dining") == "on", request.POST.get("keep_receipt_email") == "on"
    fallback = request.POST.get("card_fields_fallback") == "on"
    order_services.order_settings_update(
        business=business, ask_dining=ask, keep_receipt_email=keep, card_fields_fallback=fallback
    )
    # Each choice a whole sentence, so a translator never glues words.
    said = {
        (True, True): _(
            "The kiosks of {business} ask eat in or take away, and keep the address a receipt is mailed to."
        ),
        (True, False): _(
            "The kiosks of {business} ask eat in or take away, and do not keep the address a receipt is mailed to."
        ),
        (False, True): _(
            "The kiosks of {business} no longer ask eat in or take away, and keep the address a receipt is mailed to."
        ),
        (False, False): _(
            "The kiosks of {business} no longer ask eat in or take away, and do not keep the address a receipt is "
            "mailed to."
        ),
    }[ask, keep]
    messages.success(request, said.format(business=business.name))
    messages.success(
        request,
        (
            _("A customer may pay with the card fields of the kiosks of {business} while their card reader cannot.")
            if fallback
            else _("The kiosks of {business} take cards only on their card reader when they have one.")
        ).format(business=business.name),
    )
    return redirect("panel:displays")
