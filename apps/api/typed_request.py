"""What a surface's authentication and permission classes guarantee about its requests, for the
type checker: DRF types `user` and `auth` for any scheme. Each surface names its pair once, under
TYPE_CHECKING (`KioskRequest = SurfaceRequest[..., Kiosk]`); at run time each of those names is
DRF's Request, which is what the views receive."""

from typing import TYPE_CHECKING, Generic, TypeVar

from rest_framework.request import Request

UserT = TypeVar("UserT")
AuthT = TypeVar("AuthT")

if TYPE_CHECKING:

    class SurfaceRequest(Request, Generic[UserT, AuthT]):
        """A DRF Request whose `user` is a UserT and whose `auth` is an AuthT."""

        # DRF's `user` is a user; a surface may put a credential there (the owner API's key).
        @property  # type: ignore[override]
        def user(self) -> UserT: ...
        @user.setter
        def user(self, value: UserT) -> None: ...
        @property
        def auth(self) -> AuthT: ...
        @auth.setter
        def auth(self, value: AuthT) -> None: ...
