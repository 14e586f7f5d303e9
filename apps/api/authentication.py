"""The authentication the surfaces share that needs no domain app: the agent's cookie session
with its XSRF header. Each credential a domain app owns is checked in that app, beside the
surface's base view (apps.kiosks.api.authentication, apps.accounts.api.authentication,
apps.owner_api.api.authentication; docs/decisions/structure.md "Layers")."""

from django.contrib.auth.base_user import AbstractBaseUser
from rest_framework import authentication
from rest_framework.request import Request

from apps.api import xsrf
from apps.api.drf_request import django_request


class AgentSessionAuthentication(authentication.BaseAuthentication):
    """Agent API: the `app_session` cookie session of an active agent user, plus X-XSRF-TOKEN."""

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, None] | None:
        user = getattr(django_request(request), "user", None)
        if user is None or not user.is_authenticated or not user.is_active or not user.is_agent:
            return None
        xsrf.enforce(django_request(request))
        return (user, None)

    def authenticate_header(self, request: Request) -> str:
        return "Session"
