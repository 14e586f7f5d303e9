"""A customer whose language no agent at work speaks (router.nobody_speaks): offered at once to
the pool's agents of any language, not after the any-language time. A speaker who is busy with
a customer or holds another offer is still waited for until that time."""

from datetime import timedelta

import time_machine
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.routing import offers
from apps.routing.models import Offer, RoutingSettings
from apps.routing.router import AtWorkAgent, nobody_speaks
from apps.routing.wait_estimate import Pool, estimate_wait
from apps.sessions.models import SessionStatus
from tests import factories
from tests.routing.test_routing_offers import idle, live_offers, waiting

EN, ES, FR = frozenset({"en"}), frozenset({"es"}), frozenset({"fr"})


# --- The rule on its own -------------------------------------------------------------------


def test_nobody_speaks_a_language_no_agent_of_the_pool_at_work_speaks():
    assert nobody_speaks(1, "fr", [AtWorkAgent(1, EN), AtWorkAgent(1, ES)])
    assert nobody_speaks(1, "fr", [])
    assert not nobody_speaks(1, "fr", [AtWorkAgent(1, EN), AtWorkAgent(1, FR)])
    assert not nobody_speaks(1, "fr", [AtWorkAgent(None, FR)])  # a platform agent is in every pool
    assert nobody_speaks(1, "fr", [AtWorkAgent(2, FR)])  # another owner's is not
    assert not nobody_speaks(1, "fr", [AtWorkAgent(1, frozenset())])  # no languages set: every language


# --- The router against the database -------------------------------------------------------


def test_a_french_customer_with_only_english_and_spanish_agents_signed_in_is_offered_at_once(kiosk, owner):
    english = idle(owner, since_seconds=100, languages=["en"])
    spanish = idle(owner, since_seconds=10, languages=["es"])
    session = waiting(kiosk, locale="fr-FR")
    assert offers.offers_dispatch() == 2
    assert live_offers(session) == {english.pk, spanish.pk}
    assert set(Offer.objects.filter(session=session).values_list("any_language", flat=True)) == {True}


def test_a_french_agent_on_break_or_signed_out_is_not_waited_for(kiosk, owner):
    idle(owner, since_seconds=100, languages=["fr"], agent_status=AgentStatus.BREAK)
    idle(owner, since_seconds=100, languages=["fr"], last_seen_at=timezone.now() - timedelta(minutes=5))
    factories.AgentFactory(languages=["fr"])  # another owner's, signed in and free
    english = idle(owner, since_seconds=10, languages=["en"])
    session = waiting(kiosk, locale="fr-CA")
    offers.offers_dispatch()
    assert live_offers(session) == {english.pk}


def test_a_french_customer_waits_for_the_french_agent_busy_with_a_customer_until_the_any_language_time(kiosk, owner):
    french = idle(owner, since_seconds=100, languages=["fr"], agent_status=AgentStatus.BUSY)
    factories.SessionFactory(kiosk=kiosk, agent=french, status=SessionStatus.ACTIVE, accepted_at=timezone.now())
    english = idle(owner, since_seconds=10, languages=["en"])
    session = waiting(kiosk, locale="fr-FR")
    assert offers.offers_dispatch() == 0
    assert live_offers(session) == set()
    with time_machine.travel(timezone.now() + timedelta(seconds=29)):
        User.objects.filter(pk__in=[french.pk, english.pk]).update(last_seen_at=timezone.now())
        offers.offers_dispatch()
        assert live_offers(session) == set()
    with time_machine.travel(timezone.now() + timedelta(seconds=31)):
        User.objects.filter(pk__in=[french.pk, english.pk]).update(last_seen_at=timezone.now())
        offers.offers_dispatch()
        assert live_offers(session) == {english.pk}


def test_a_french_customer_waits_for_the_french_agent_holding_another_offer_until_the_any_language_time(kiosk, owner):
    RoutingSettings.objects.create(
        owner=owner,
        offer_size=1,
        offer_seconds=60,
        any_language_after_seconds=30,
        misses_before_break=2,
        self_service_after_seconds=120,
    )
    french = idle(owner, since_seconds=100, languages=["fr", "en"])
    english = idle(owner, since_seconds=10, languages=["en"])
    older = waiting(kiosk, locale="en-US", ago=5)
    session = waiting(kiosk, locale="fr-FR")
    offers.offers_dispatch()
    assert live_offers(older) == {french.pk}  # the longest idle, in the middle of this offer
    assert live_offers(session) == set()  # the free English agent is not offered it yet
    with time_machine.travel(timezone.now() + timedelta(seconds=31)):
        User.objects.filter(pk__in=[french.pk, english.pk]).update(last_seen_at=timezone.now())
        offers.offers_dispatch()
        assert live_offers(session) == {english.pk}
    assert Offer.objects.get(session=session).any_language is True


def test_the_wait_shown_to_a_customer_nobody_speaks_to_is_not_the_any_language_time():
    answers = tuple((4.0, 1) for _ in range(5))
    english = (EN,)
    pool = Pool(
        available=1,
        signed_in=1,
        answer_seconds=4,
        handle_seconds=100,
        answers=answers,
        available_languages=english,
        free_languages=english,
        any_language_after=30,
        at_work_languages=english,
    )
    assert estimate_wait(1, pool, language="fr") == 4  # offered at once
    busy_french = Pool(**{**pool.__dict__, "signed_in": 2, "at_work_languages": (EN, FR)})
    assert estimate_wait(1, busy_french, language="fr") == 34  # waits for the French agent first
