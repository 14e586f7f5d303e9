"""A colleague of the owner's agent, for the transfer tests."""

import pytest

from tests import factories
from tests.support.transfers import signed_in_client


@pytest.fixture
def colleague(owner):
    return factories.AgentFactory(owner=owner, name="Bea", languages=["es"])


@pytest.fixture
def colleague_client(colleague):
    return signed_in_client(colleague)
