"""The super-admin's bulk actions on state that services own: each selected object goes through
its service one at a time (so each change emits its events, webhooks and real-time messages as
anywhere else), then the admin is told how many changed."""

from collections.abc import Callable, Iterable
from typing import TypeVar

from django.contrib import admin, messages
from django.db.models import Model
from django.http import HttpRequest

M = TypeVar("M", bound=Model)


def each_through_service(
    modeladmin: admin.ModelAdmin[M],
    request: HttpRequest,
    objects: Iterable[M],
    change: Callable[[M], object],
    told: str,
) -> None:
    """`change(obj)` for each of `objects`, then `told` ("{count} ...") as a success message."""
    changed = list(objects)
    for obj in changed:
        change(obj)
    modeladmin.message_user(request, told.format(count=len(changed)), messages.SUCCESS)
