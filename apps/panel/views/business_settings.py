"""Settings of a business: name, logo, currency, tax, the kiosk's colour and attract message,
session recording; and the owner's routing settings (how customers reach its agents)."""

from django.contrib import messages
from django.http import Http404, HttpResponseBase, QueryDict
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.accounts import services as account_services
from apps.core.errors import DomainError
from apps.panel.access import ANY_ROLE, PanelRequest, panel_page
from apps.panel.forms import BusinessSettingsForm, RoutingSettingsForm
from apps.panel.pages import businesses_of, error_text, render_page
from apps.routing import routing_settings
from apps.routing.services import routing_settings_update


@panel_page(ANY_ROLE)
def settings_page(request: PanelRequest) -> HttpResponseBase:
    businesses = businesses_of(request)
    chosen = request.GET.get("business") or request.POST.get("business_id")
    if chosen:
        business = businesses.filter(pk=chosen).first() if str(chosen).isdigit() else None
        if business is None:
            raise Http404("No such business in your account.")
    else:
        business = businesses.first()
    if business is None:
        return render_page(request, "panel/settings.html", {"business": None}, section="settings")
    form = BusinessSettingsForm(request.POST or None, instance=business)
    if request.method == "POST" and form.is_valid():
        changed = form.changes()
        try:
            account_services.business_update(business=businesses.get(pk=business.pk), **changed)
        except DomainError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Settings of {name} saved.").format(name=business.name))
            return redirect(f"{request.path}?business={business.pk}")
    context = {"business": business, "businesses": businesses, "form": form, "routing_form": _routing_form(request)}
    return render_page(request, "panel/settings.html", context, section="settings")


def _routing_form(request: PanelRequest, data: QueryDict | None = None) -> RoutingSettingsForm:
    current = routing_settings.routing_for_owner(request.user.owner_id)
    initial = {name: getattr(current, name) for name in routing_settings.FIELD_NAMES}
    # The stored number, not the default it falls back to: saving the form keeps "the default".
    initial["agent_capacity"] = routing_settings.stored_capacity(request.user.owner_id)
    return RoutingSettingsForm(data, initial=initial, prefix="routing")


@panel_page(ANY_ROLE)
@require_POST
def routing_settings_page(request: PanelRequest) -> HttpResponseBase:
    form = _routing_form(request, request.POST)
    if form.is_valid():
        try:
            routing_settings_update(owner_id=request.user.owner_id, **form.cleaned_data)
        except DomainError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, _("Routing settings saved: they apply to the next offers."))
            return redirect("panel:settings")
    business = businesses_of(request).first()
    context: dict[str, object] = {"business": business, "businesses": businesses_of(request), "routing_form": form}
    if business is not None:
        context["form"] = BusinessSettingsForm(instance=business)
    return render_page(request, "panel/settings.html", context, section="settings", status=422)
