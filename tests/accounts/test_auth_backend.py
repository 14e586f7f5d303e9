"""apps/accounts/backends.py: the per-request user read of signed-in agents and panel users."""

from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.accounts.backends import SIGN_IN_BACKEND, AccountsBackend
from apps.accounts.models import User
from tests import factories
from tests.conftest import AgentClient


def test_the_user_read_is_the_models_row_in_one_query(db, owner):
    agent = factories.AgentFactory(owner=owner, name="Ada")
    with CaptureQueriesContext(connection) as queries:
        read = AccountsBackend().get_user(str(agent.pk))  # the session holds the id as a string
    assert len(queries) == 1
    assert (read.pk, read.email, read.name, read.owner_id, read.is_agent) == (
        agent.pk,
        agent.email,
        "Ada",
        owner.pk,
        True,
    )
    assert read.get_session_auth_hash() == User.objects.get(pk=agent.pk).get_session_auth_hash()


def test_an_unknown_or_disabled_user_is_none(db, owner):
    disabled = factories.AgentFactory(owner=owner, is_active=False)
    assert AccountsBackend().get_user(disabled.pk) is None
    assert AccountsBackend().get_user(disabled.pk + 1000) is None


def test_sign_in_records_this_backend_and_the_next_request_is_the_agents(agent):
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    assert client.session[BACKEND_SESSION_KEY] == SIGN_IN_BACKEND
    assert client.get("/api/user").json()["email"] == agent.email


def test_a_session_signed_in_before_this_backend_still_works(agent):
    """Sessions that recorded Django's ModelBackend outlive the deploy that added ours."""
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    session = client.session
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session.save()
    response = client.get("/api/user")
    assert (response.status_code, response.json()["email"]) == (200, agent.email)
