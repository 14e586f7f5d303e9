"""The authentication backend: Django's ModelBackend with a cheaper per-request user read."""

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from apps.accounts.models import User

SIGN_IN_BACKEND = "apps.accounts.backends.AccountsBackend"  # what django_login records in the session
_BY_ID = f"SELECT * FROM {User._meta.db_table} WHERE {User._meta.pk.column} = %s"  # noqa: S608 - no user input


class AccountsBackend(ModelBackend):
    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> User | None:
        """A refusal here is final (Django's documented PermissionDenied): otherwise Django would
        try the next backend, ModelBackend (kept for old sessions), and hash the password twice."""
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied
        return user

    def get_user(self, user_id: object) -> User | None:
        """Every signed-in request (the agent API, the panel) loads its user here. A raw read,
        the same row as ModelBackend's `get(pk=...)`: compiling that query cost more than running
        it (bench/accept_race.py)."""
        user = next(iter(User.objects.raw(_BY_ID, [user_id])), None)
        return user if self.user_can_authenticate(user) else None
