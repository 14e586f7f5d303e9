"""The session engine (SESSION_ENGINE): Django's cached_db engine, storing each session under the
SHA-256 of its cookie's value rather than the value itself. Whoever reads the database, a backup
of it or the cache's keys gets no cookie that signs anyone in.

Built on Django's documented extension point for database-backed engines (a SessionStore subclass
with its own AbstractBaseSession model, `get_model_class`); only the lookups by key change. The
signing salt derives from the class name, SessionStore, as Django's own, so data moved from
django_session (migration accounts 0004) still decodes. The model, StoredSession, is defined
here beside its engine (accounts' models module re-exports it), so the two do not import each other.

It is also the adapter to Django's session internals (no other module reaches into a library's
private parts): the key lookups of the cached_db engine have no public hook, so this module alone
uses SessionBase's `_get_or_create_session_key`/`_aget_or_create_session_key`, `_session_key` and
cached_db's `_cache` (Django is pinned exactly; tests/operations/test_library_adapters.py fails if
a name disappears).
"""

import hashlib
from typing import Any

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.utils import timezone


def stored_key(session_key: str) -> str:
    """The key a session is stored under: session keys are 32 random characters, so a plain
    SHA-256 cannot be walked back."""
    return hashlib.sha256(session_key.encode()).hexdigest()


class SessionStore(cached_db.SessionStore):
    cache_key_prefix = "apps.accounts.session_store"

    @classmethod
    def get_model_class(cls) -> type[AbstractBaseSession]:
        return StoredSession

    @property
    def cache_key(self) -> str:
        return self.cache_key_prefix + stored_key(self._get_or_create_session_key())  # type: ignore[attr-defined]

    async def acache_key(self) -> str:
        return self.cache_key_prefix + stored_key(await self._aget_or_create_session_key())  # type: ignore[attr-defined]

    def _get_session_from_db(self) -> AbstractBaseSession | None:
        found = self.model.objects.filter(
            session_key=stored_key(self.session_key or ""), expire_date__gt=timezone.now()
        )
        session = found.first()
        if session is None:
            self._session_key = None
        return session

    async def _aget_session_from_db(self) -> AbstractBaseSession | None:
        found = self.model.objects.filter(
            session_key=stored_key(self.session_key or ""), expire_date__gt=timezone.now()
        )
        session = await found.afirst()
        if session is None:
            self._session_key = None
        return session

    def exists(self, session_key: str) -> bool:
        if not session_key:
            return False
        key = stored_key(session_key)
        return self.cache_key_prefix + key in self._cache or self.model.objects.filter(session_key=key).exists()  # type: ignore[attr-defined]

    async def aexists(self, session_key: str) -> bool:
        if not session_key:
            return False
        key = stored_key(session_key)
        in_cache = await self._cache.ahas_key(self.cache_key_prefix + key)  # type: ignore[attr-defined]
        return in_cache or await self.model.objects.filter(session_key=key).aexists()

    def create_model_instance(self, data: dict[str, Any]) -> AbstractBaseSession:
        return self.model(
            session_key=stored_key(self._get_or_create_session_key()),  # type: ignore[attr-defined]
            session_data=self.encode(data),
            expire_date=self.get_expiry_date(),
        )

    async def acreate_model_instance(self, data: dict[str, Any]) -> AbstractBaseSession:
        return self.model(
            session_key=stored_key(await self._aget_or_create_session_key()),  # type: ignore[attr-defined]
            session_data=self.encode(data),
            expire_date=await self.aget_expiry_date(),
        )

    def delete(self, session_key: str | None = None) -> None:
        session_key = session_key or self.session_key
        if session_key is None:
            return
        self.model.objects.filter(session_key=stored_key(session_key)).delete()
        self._cache.delete(self.cache_key_prefix + stored_key(session_key))  # type: ignore[attr-defined]

    async def adelete(self, session_key: str | None = None) -> None:
        session_key = session_key or self.session_key
        if session_key is None:
            return
        await self.model.objects.filter(session_key=stored_key(session_key)).adelete()
        await self._cache.adelete(self.cache_key_prefix + stored_key(session_key))  # type: ignore[attr-defined]


class StoredSession(AbstractBaseSession):
    """A browser's signed-in session (agent dashboard, panel, admin), stored under the SHA-256 of
    its cookie's value (SessionStore below, the SESSION_ENGINE): the table holds no
    cookie that signs anyone in."""

    session_key = models.CharField(max_length=64, primary_key=True, help_text="SHA-256 of the cookie's value.")

    @classmethod
    def get_session_store_class(cls) -> type[SessionBase]:
        return SessionStore
