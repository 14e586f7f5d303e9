"""Settings of a business: name, logo, currency, tax, the kiosk's colour and attract message,
session recording."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect

from apps.accounts import services as account_services
from apps.core.errors import DomainError
from apps.panel.access import ANY_ROLE, panel_page
from apps.panel.forms import BusinessSettingsForm
from apps.panel.pages import businesses_of, error_text, render_page


@panel_page(ANY_ROLE)
def settings_page(request):
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
            messages.success(request, f"Settings of {business.name} saved.")
            return redirect(f"{request.path}?business={business.pk}")
    context = {"business": business, "businesses": businesses, "form": form}
    return render_page(request, "panel/settings.html", context, section="settings")
