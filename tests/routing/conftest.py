"""The transfer tests' colleague fixtures, shared with tests/sessions (its conftest defines them)."""

from tests.sessions.conftest import colleague, colleague_client

__all__ = ["colleague", "colleague_client"]
