"""Who may see which panel page: the one place for the owner panel's sign-in and role rules.

Owners and managers of an owner sign in; agents and staff are refused (agents have their own
dashboard). Managers do everything but billing, agents, webhooks and API keys. Another owner's object is
a 404, never a 403, so ids do not leak which tenants exist.
"""

from collections.abc import Callable
from functools import wraps
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar, cast

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from apps.accounts.actors import display_member, panel_member
from apps.accounts.models import Owner, PanelRole, User

OWNER_ONLY = "owner-only"  # billing, agents, webhooks, API keys
ANY_ROLE = "any-role"

if TYPE_CHECKING:

    class PanelMember(User):
        """A user `panel_page` let through: `display_member` holds, so the tenant is set. For the
        type checker only (a runtime subclass would be a new model)."""

        owner: Owner
        owner_id: int

    class PanelRequest(HttpRequest):
        """The request a panel view receives: signed in as a panel member of an owner."""

        user: PanelMember

else:
    PanelRequest = HttpRequest

_P = ParamSpec("_P")
_M = TypeVar("_M", bound=Model)
PanelView = Callable[Concatenate[PanelRequest, _P], HttpResponseBase]
View = Callable[Concatenate[HttpRequest, _P], HttpResponseBase]


def is_panel_user(user: User | AnonymousUser) -> bool:
    return isinstance(user, User) and user.is_authenticated and panel_member(user)


def can_manage_owner_pages(user: User) -> bool:
    return user.panel_role == PanelRole.OWNER


def forbidden(request: HttpRequest, message: str) -> HttpResponse:
    return render(request, "panel/403.html", {"message": message}, status=403)


def panel_page(access: str = ANY_ROLE) -> Callable[[PanelView[_P]], View[_P]]:
    """Decorate a panel view: anonymous -> the login page; agents and other accounts -> 403;
    managers on an owner-only page -> 403."""

    def decorate(view: PanelView[_P]) -> View[_P]:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: _P.args, **kwargs: _P.kwargs) -> HttpResponseBase:
            user = request.user
            if not isinstance(user, User) or not user.is_authenticated:
                return redirect_to_login(request.get_full_path(), "panel:login")
            if display_member(user) and user.panel_role == PanelRole.KITCHEN:
                return redirect("/kitchen/")  # a kitchen user's one screen
            if not is_panel_user(user):
                message = (
                    _("Agents use the agent dashboard, not the owner panel.")
                    if user.is_agent
                    else _("This account has no access to the owner panel.")
                )
                return forbidden(request, message)
            if access == OWNER_ONLY and not can_manage_owner_pages(user):
                return forbidden(request, _("Only the account owner can open this page; ask them for access."))
            # The checks above are what make it a PanelRequest (a signed-in member of an owner).
            return view(cast("PanelRequest", request), *args, **kwargs)

        return wrapper

    return decorate


def owned_or_404(queryset: QuerySet[_M], request: PanelRequest, owner_path: str = "owner", **lookup: object) -> _M:
    """The object matching `lookup` inside the signed-in user's owner, else 404."""
    obj = queryset.filter(**{owner_path + "_id": request.user.owner_id}, **lookup).first()
    if obj is None:
        raise Http404("No such object in your account.")
    return obj
