from rest_framework.permissions import BasePermission

from apps.core.errors import DomainError, ErrorCode


class IsKiosk(BasePermission):
    def has_permission(self, request, view) -> bool:
        return request.auth is not None


class IsAgent(BasePermission):
    def has_permission(self, request, view) -> bool:
        return request.user is not None


class HasToken(BasePermission):
    def has_permission(self, request, view) -> bool:
        return request.user is not None


class HasOwnerToken(BasePermission):
    """A bearer token resolves to its agent's owner; an ownerless agent is refused (spec 5)."""

    def has_permission(self, request, view) -> bool:
        if request.user is None:
            return False
        if request.user.owner_id is None:
            raise DomainError(ErrorCode.FORBIDDEN, "Token not associated with an owner")
        return True
