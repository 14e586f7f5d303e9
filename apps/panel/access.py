"""Who may see which panel page: the one place for the owner panel's sign-in and role rules.

Owners and managers of an owner sign in; agents and staff are refused (agents have their own
dashboard). Managers do everything but billing, agents, webhooks and API keys. Another owner's object is
a 404, never a 403, so ids do not leak which tenants exist.
"""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.db.models import Model, QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import redirect, render

from apps.accounts.actors import display_member, panel_member
from apps.accounts.models import PanelRole, User

OWNER_ONLY = "owner-only"  # billing, agents, webhooks, API keys
ANY_ROLE = "any-role"


def is_panel_user(user) -> bool:
    return user.is_authenticated and panel_member(user)


def can_manage_owner_pages(user: User) -> bool:
    return user.panel_role == PanelRole.OWNER


def forbidden(request: HttpRequest, message: str):
    return render(request, "panel/403.html", {"message": message}, status=403)


def panel_page(access: str = ANY_ROLE):
    """Decorate a panel view: anonymous -> the login page; agents and other accounts -> 403;
    managers on an owner-only page -> 403."""

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            user = request.user
            if not user.is_authenticated:
                return redirect_to_login(request.get_full_path(), "panel:login")
            if display_member(user) and user.panel_role == PanelRole.KITCHEN:
                return redirect("/kitchen/")  # a kitchen user's one screen
            if not is_panel_user(user):
                message = (
                    "Agents use the agent dashboard, not the owner panel."
                    if user.is_agent
                    else "This account has no access to the owner panel."
                )
                return forbidden(request, message)
            if access == OWNER_ONLY and not can_manage_owner_pages(user):
                return forbidden(request, "Only the account owner can open this page; ask them for access.")
            return view(request, *args, **kwargs)

        return wrapper

    return decorate


def owned_or_404(queryset: QuerySet, request: HttpRequest, owner_path: str = "owner", **lookup) -> Model:
    """The object matching `lookup` inside the signed-in user's owner, else 404."""
    obj = queryset.filter(**{owner_path + "_id": request.user.owner_id}, **lookup).first()
    if obj is None:
        raise Http404("No such object in your account.")
    return obj
