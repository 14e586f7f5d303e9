"""Where the service reaches past a library's documented API, it does so in one adapter module
per library, with the library pinned exactly (requirements.txt). These tests fail loudly, naming
the adapter, when an upgrade removes or renames what an adapter relies on (the behaviour tests
of each adapter would fail too, less plainly)."""

import inspect

from django.test import RequestFactory
from rest_framework.request import Request
from twisted.web import http as twisted_http
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.poolmanager import PoolManager

from apps.api.drf_request import django_request


def test_drf_request_still_wraps_the_django_request():
    """apps/api/drf_request.py reads DRF's `Request._request`."""
    plain = RequestFactory().get("/")
    assert django_request(Request(plain)) is plain


def test_twisted_http_channel_still_has_the_hooks_http_limits_overrides():
    """apps/api/http_limits.py overrides LineReceiver's hooks on Twisted's HTTPChannel and reads
    its limits."""
    channel = twisted_http.HTTPChannel
    for name in ("lineReceived", "lineLengthExceeded", "loseConnection"):
        assert callable(getattr(channel, name, None)), (
            f"twisted HTTPChannel.{name} is gone: see apps/api/http_limits.py"
        )
    assert isinstance(channel.totalHeadersSize, int) and isinstance(channel.MAX_LENGTH, int)


def test_urllib3_still_opens_connections_through_new_conn():
    """apps/webhooks/urllib3_adapter.py checks the peer in `_new_conn`, which `connect()` must
    still call before anything is sent (for HTTPS, before the TLS handshake)."""
    for connection in (HTTPConnection, HTTPSConnection):
        assert callable(getattr(connection, "_new_conn", None)), f"urllib3 {connection.__name__}._new_conn is gone"
        source = inspect.getsource(connection.connect)
        assert "self._new_conn()" in source, f"urllib3 {connection.__name__}.connect no longer calls _new_conn"


def test_urllib3_pool_manager_still_takes_its_pool_classes_per_instance():
    manager = PoolManager()
    assert set(manager.pool_classes_by_scheme) == {"http", "https"}
    assert "self.pool_classes_by_scheme[scheme]" in inspect.getsource(PoolManager._new_pool)


def test_django_sessions_still_have_what_the_hashed_session_store_overrides():
    """apps/accounts/session_store.py uses SessionBase's key helpers and cached_db's `_cache`, and
    replaces cached_db's `_get_session_from_db` lookups."""
    from django.contrib.sessions.backends import cached_db
    from django.contrib.sessions.backends.base import SessionBase

    for name in ("_get_or_create_session_key", "_aget_or_create_session_key", "_get_session_key"):
        assert callable(getattr(SessionBase, name, None)), f"SessionBase.{name} is gone"
    for name in ("_get_session_from_db", "_aget_session_from_db", "create_model_instance"):
        assert callable(getattr(cached_db.SessionStore, name, None)), f"cached_db.SessionStore.{name} is gone"
    assert "_cache" in vars(cached_db.SessionStore(None)), "cached_db.SessionStore no longer keeps _cache"
