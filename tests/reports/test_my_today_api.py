"""GET /api/reports/me/today: the signed-in agent's own figures for today in the business's time
zone, hand-computed over the Madrid scene (tests/support/reports.py) with "today" pinned to
Sunday 2026-10-25 (the day summer time ends); another owner's agent sees only zeros."""

from datetime import date

import pytest

from apps.reports import ranges
from tests import factories
from tests.conftest import AgentClient
from tests.support.reports import EMPTY_METRICS, build_scene

URL = "/api/reports/me/today"


@pytest.fixture
def scene(db, monkeypatch):
    monkeypatch.setattr(ranges, "today_in", lambda zone_name: date(2026, 10, 25))
    return build_scene()


def signed_in(user) -> AgentClient:
    client = AgentClient()
    assert client.sign_in(user.email).status_code == 200
    return client


def test_the_agent_sees_its_own_figures_for_today(scene):
    response = signed_in(scene.ana).get(URL)
    assert response.status_code == 200, response.content
    body = response.json()
    # Sunday (Madrid): Ana ends S2 (40 s wait, 600 s handle, paid 1500, 500 refunded) and S4
    # (transferred to her, abandoned 120 s after the answer, draft order); S1 was Saturday.
    assert (body["day"], body["timezone"], body["currency"]) == ("2026-10-25", "Europe/Madrid", "USD")
    assert body["sessions_started"] == 2 and body["sessions_answered"] == 2
    assert body["handle_seconds_avg"] == 360.0  # (600 + 120) / 2
    assert body["paid_orders"] == 1 and body["conversion"] == 0.5
    assert body["revenue_cents"] == 1500 and body["refunds_cents"] == 500
    assert body["abandoned_after_answer"] == 1 and body["transfers"] == 1
    assert (body["offers"], body["offers_missed"], body["offer_acceptance"]) == (2, 1, 0.5)  # S2 accepted, S3 missed


def test_an_agent_without_sessions_today_sees_zeros_and_its_offers(scene):
    body = signed_in(scene.ben).get(URL).json()
    assert body["sessions_started"] == 0 and body["handle_seconds_avg"] is None and body["revenue_cents"] == 0
    assert (body["offers"], body["offers_missed"]) == (3, 1)  # S2 withdrawn, S3 missed, S4 accepted


def test_another_owners_agent_never_counts_this_owners_sessions(scene):
    stranger = factories.AgentFactory(owner=factories.BusinessFactory(timezone="Europe/Madrid").owner)
    body = signed_in(stranger).get(URL).json()
    assert {name: body[name] for name in EMPTY_METRICS} == EMPTY_METRICS


def test_signed_out_is_401(db):
    from django.test import Client

    assert Client().get(URL).status_code == 401
