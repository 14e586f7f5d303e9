# Type stubs for the parts of django-otp this project uses: the package ships no types (no
# py.typed), so without these every device model would be Any (pyproject.toml: mypy_path).
from collections.abc import Iterator

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django_otp.models import Device

DEVICE_ID_SESSION_KEY: str

def login(request: HttpRequest, device: Device | None) -> None: ...
def devices_for_user(
    user: AbstractBaseUser | AnonymousUser, confirmed: bool | None = True, for_verify: bool = False
) -> Iterator[Device]: ...
def user_has_device(user: AbstractBaseUser | AnonymousUser, confirmed: bool | None = True) -> bool: ...
