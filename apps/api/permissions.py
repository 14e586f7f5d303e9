from django.contrib.auth.models import AnonymousUser
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from apps.core.errors import DomainError, ErrorCode


class IsKiosk(BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.auth is not None


class IsAgent(BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.user is not None


class HasToken(BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.user is not None


class HasOwnerToken(BasePermission):
    """A bearer token resolves to its agent's owner; an ownerless agent is refused (spec 5)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        user = request.user
        if user is None or isinstance(user, AnonymousUser):  # None: UNAUTHENTICATED_USER
            return False
        if user.owner_id is None:
            raise DomainError(ErrorCode.FORBIDDEN, "Token not associated with an owner")
        return True
