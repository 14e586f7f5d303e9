"""GET /api/v1/reports/sessions: every metric hand-computed over the Madrid scene (midnight and
the end of summer time), each grouping, validation, and another owner's data never counted."""

import pytest
from django.test import Client

from tests import factories
from tests.conftest import token_client_for
from tests.support.auth import error_of
from tests.support.reports import EMPTY_METRICS, FROM, TO, TOTALS, build_scene

URL = "/api/v1/reports/sessions"


@pytest.fixture
def scene(db, settings):
    settings.REQUIRE_TLS = False
    return build_scene()


@pytest.fixture
def api(scene):
    return token_client_for(scene.ana)


def report(api, **query):
    response = api.get(URL, {"from": FROM, "to": TO, **query})
    assert response.status_code == 200, response.content
    return response.json()


def row_of(body, key_id):
    [row] = [row for row in body["rows"] if row["key"]["id"] == key_id]
    return {name: value for name, value in row.items() if name != "key"}


def test_totals_metric_by_metric(api):
    body = report(api, group_by="day")
    assert body["from"] == FROM and body["to"] == TO
    assert body["group_by"] == "day" and body["timezone"] == "Europe/Madrid"
    assert body["totals"] == TOTALS


def test_days_are_madrid_days_across_midnight_and_the_dst_change(api):
    body = report(api, group_by="day")
    assert [row["key"] for row in body["rows"]] == [
        {"id": "2026-10-24", "name": "2026-10-24"},
        {"id": "2026-10-25", "name": "2026-10-25"},
    ]
    saturday = {
        **EMPTY_METRICS,
        "sessions_started": 1,  # S1 at 23:59:50 local (21:59:50Z)
        "sessions_answered": 1,
        "answer_seconds_p50": 20.0,
        "answer_seconds_p90": 20.0,
        "answered_within_30s_share": 1.0,
        "handle_seconds_avg": 300.0,
        "handle_seconds_p90": 300.0,
        "paid_orders": 1,
        "conversion": 1.0,
        "revenue_cents": 2000,
        "average_order_cents": 2000,
        "items_per_order": 3.0,
        "self_service_share": 0.0,
    }
    assert row_of(body, "2026-10-24") == saturday
    sunday = {
        "sessions_started": 4,  # S2 (local midnight), S3, S4, S5 (23:59:59 CET)
        "sessions_answered": 2,
        "answer_seconds_p50": 25.0,  # S2 40 s, S4 10 s
        "answer_seconds_p90": 37.0,  # 10 + 0.9 x 30
        "answered_within_30s_share": 0.25,
        "abandoned_waiting": 1,
        "abandoned_after_answer": 1,
        "handle_seconds_avg": 360.0,  # (600 + 120) / 2
        "handle_seconds_p90": 552.0,  # 120 + 0.9 x 480
        "transfers": 1,
        "paid_orders": 2,  # S2, S5
        "conversion": 0.5,  # S2 of the 2 answered
        "revenue_cents": 2500,
        "average_order_cents": 1250,
        "items_per_order": 2.0,
        "refunds_cents": 500,
        "self_service_orders": 1,
        "self_service_share": 0.5,
        "offers": 5,
        "offers_missed": 2,
        "offer_acceptance": 0.4,
    }
    assert row_of(body, "2026-10-25") == sunday


def test_hours_of_day_count_both_half_past_two_of_the_dst_night(api):
    body = report(api, group_by="hour")
    assert [row["key"]["id"] for row in body["rows"]] == list(range(24))
    assert body["rows"][2]["key"] == {"id": 2, "name": "02:00"}
    started = {row["key"]["id"]: row["sessions_started"] for row in body["rows"] if row["sessions_started"]}
    assert started == {0: 1, 2: 2, 23: 2}  # S2; S3 (CEST) and S4 (CET); S1 and S5
    two = row_of(body, 2)
    assert (two["sessions_answered"], two["abandoned_waiting"], two["abandoned_after_answer"]) == (1, 1, 1)
    assert (two["transfers"], two["paid_orders"], two["offers"], two["offers_missed"]) == (1, 0, 3, 2)
    assert row_of(body, 5) == EMPTY_METRICS
    assert body["totals"] == TOTALS


def test_by_agent_sessions_count_for_their_last_agent_and_offers_for_the_agent_offered(api, scene):
    body = report(api, group_by="agent")
    assert [row["key"] for row in body["rows"]] == [
        {"id": scene.ana.pk, "name": "Ana"},
        {"id": scene.ben.pk, "name": "Ben"},
        {"id": None, "name": "No agent"},
    ]
    ana = row_of(body, scene.ana.pk)
    assert ana == {
        **EMPTY_METRICS,
        "sessions_started": 3,  # S1, S2, S4 (transferred to her)
        "sessions_answered": 3,
        "answer_seconds_p50": 20.0,
        "answer_seconds_p90": 36.0,
        "answered_within_30s_share": 0.6667,
        "abandoned_after_answer": 1,
        "handle_seconds_avg": 340.0,
        "handle_seconds_p90": 540.0,
        "transfers": 1,
        "paid_orders": 2,
        "conversion": 0.6667,
        "revenue_cents": 3500,
        "average_order_cents": 1750,
        "items_per_order": 2.5,
        "refunds_cents": 500,
        "self_service_share": 0.0,
        "offers": 2,  # S2 accepted, S3 missed
        "offers_missed": 1,
        "offer_acceptance": 0.5,
    }
    ben = row_of(body, scene.ben.pk)
    assert ben == {**EMPTY_METRICS, "offers": 3, "offers_missed": 1, "offer_acceptance": 0.3333}
    nobody = row_of(body, None)
    assert nobody["sessions_started"] == 2 and nobody["abandoned_waiting"] == 1  # S3, S5
    assert (nobody["paid_orders"], nobody["self_service_orders"], nobody["self_service_share"]) == (1, 1, 1.0)
    assert nobody["conversion"] is None and nobody["revenue_cents"] == 1000


def test_by_kiosk_and_by_language(api, scene):
    kiosks = report(api, group_by="kiosk")
    assert [row["key"] for row in kiosks["rows"]] == [
        {"id": scene.k1.pk, "name": "K1"},
        {"id": scene.k2.pk, "name": "K2"},
    ]
    k1 = row_of(kiosks, scene.k1.pk)
    assert (k1["sessions_started"], k1["paid_orders"], k1["revenue_cents"], k1["refunds_cents"]) == (3, 3, 4500, 500)
    k2 = row_of(kiosks, scene.k2.pk)
    assert (k2["sessions_started"], k2["transfers"], k2["offers"], k2["paid_orders"]) == (2, 1, 3, 0)
    languages = report(api, group_by="language")
    started = {row["key"]["id"]: (row["key"]["name"], row["sessions_started"]) for row in languages["rows"]}
    assert started == {
        "de-DE": ("German", 1),
        "en-GB": ("English", 1),
        "en-US": ("English", 1),
        "es-ES": ("Spanish", 2),
    }


def test_one_day_range_and_an_empty_range(api):
    body = report(api, to=FROM)
    assert body["totals"]["sessions_started"] == 1 and body["totals"]["revenue_cents"] == 2000
    empty = api.get(URL, {"from": "2025-01-01", "to": "2025-01-02", "group_by": "agent"}).json()
    assert empty["rows"] == [] and empty["totals"] == EMPTY_METRICS


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"from": "2026-13-01", "to": TO}, "from"),
        ({"from": FROM, "to": "yesterday"}, "to"),
        ({"to": TO}, "from"),
        ({"from": FROM}, "to"),
        ({"from": TO, "to": FROM}, "to"),
        ({"from": "2025-01-01", "to": "2026-01-02"}, "to"),  # 367 days
        ({"from": FROM, "to": TO, "group_by": "week"}, "group_by"),
        ({"from": FROM, "to": TO, "business": "x"}, "business"),
    ],
)
def test_bad_queries_are_422_naming_the_field(api, query, field):
    error = error_of(api.get(URL, query), 422, "VALIDATION_ERROR")
    assert field in error["details"], error


def test_a_full_year_is_allowed(api):
    assert api.get(URL, {"from": "2025-10-26", "to": "2026-10-26"}).status_code == 200  # 366 days


def test_another_owners_token_sees_none_of_it_and_its_business_is_404(scene):
    other = factories.AgentFactory(owner=factories.BusinessFactory().owner)
    body = token_client_for(other).get(URL, {"from": FROM, "to": TO}).json()
    assert body["totals"] == EMPTY_METRICS and body["timezone"] == "UTC"
    mine = token_client_for(scene.ana)
    error_of(mine.get(URL, {"from": FROM, "to": TO, "business": other.owner.businesses.get().pk}), 404, "NOT_FOUND")
    assert mine.get(URL, {"from": FROM, "to": TO, "business": scene.business.pk}).json()["totals"] == TOTALS


def test_needs_a_token(scene):
    assert Client().get(URL, {"from": FROM, "to": TO}).status_code == 401
