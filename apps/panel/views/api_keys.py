"""Owner API keys (owner only): list, create (the client secret is shown once), revoke.

The rules (a name, known scopes, at least one) live in `apps.owner_api.services`; a DomainError it
raises is put back on the form."""

from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.owner_api import selectors as key_selectors
from apps.owner_api import services as key_services
from apps.owner_api.models import OwnerApiKey
from apps.owner_api.scopes import ALL_SCOPES
from apps.panel.access import OWNER_ONLY, PanelRequest, owned_or_404, panel_page
from apps.panel.forms import ApiKeyCreateForm
from apps.panel.pages import form_posted, put_once, render_page, take_once

TOKEN_PATH = "/api/owner/oauth/token"  # config/urls_owner.py
NEW_KEY = "api-key-secret"


def _keys(request: PanelRequest) -> QuerySet[OwnerApiKey]:
    return key_selectors.api_keys_of_owner(request.user.owner_id)


def _create(request: PanelRequest, data: dict[str, Any]) -> HttpResponseRedirect:
    key, secret = key_services.owner_api_key_create(
        owner=request.user.owner, name=data["name"], scopes=data["scopes"], created_by=request.user
    )
    put_once(request, NEW_KEY, {"id": key.pk, "name": key.name, "client_id": key.client_id, "secret": secret})
    return redirect("panel:api_keys")


@panel_page(OWNER_ONLY)
def api_key_list(request: PanelRequest) -> HttpResponseBase:
    form = ApiKeyCreateForm(request.POST or None)
    if (created := form_posted(request, form, lambda data: _create(request, data))) is not None:
        return created
    keys = _keys(request).select_related("application", "created_by").order_by("-created_at", "-pk")
    context = {
        "keys": keys,
        "form": form,
        "new_key": take_once(request, NEW_KEY),
        "token_url": request.build_absolute_uri(TOKEN_PATH),
        "all_scopes": ALL_SCOPES,
    }
    return render_page(request, "panel/api_keys.html", context, section="api_keys")


@panel_page(OWNER_ONLY)
@require_POST
def api_key_revoke(request: PanelRequest, key_id: int) -> HttpResponseRedirect:
    key = owned_or_404(_keys(request), request, pk=key_id)
    if key.revoked_at is not None:
        messages.info(request, _("API key “{name}” was already revoked.").format(name=key.name))
        return redirect("panel:api_keys")
    key_services.owner_api_key_revoke(key=key, revoked_by=request.user)
    messages.success(
        request,
        _("API key “{name}” revoked: its tokens stopped working and no new ones are issued.").format(name=key.name),
    )
    return redirect("panel:api_keys")
