"""The one rule for "may this actor act for this owner" (apps/core/actor.may_act_for) and the
actor each kind of caller gets (apps/accounts/actors.py, apps/owner_api/api/base.py): panel
owners and managers act for their own owner only; agents, disabled users and staff for none;
an API key within its scopes. Another owner's order is 404 at the surfaces."""

import pytest

from apps.accounts.actors import panel_member, user_actor
from apps.core.actor import API_KEY, ORDERS_WRITE, REFUNDS_WRITE, Actor, may_act_for
from apps.core.errors import DomainError
from apps.orders import services as order_services
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", ["owner", "manager"])
def test_panel_owners_and_managers_act_for_their_own_owner_only(owner, other_business, role):
    actor = user_actor(factories.PanelUserFactory(owner=owner, panel_role=role))
    assert may_act_for(actor, owner.pk, ORDERS_WRITE) and may_act_for(actor, owner.pk, REFUNDS_WRITE)
    assert not may_act_for(actor, other_business.owner_id, ORDERS_WRITE)


def test_agents_act_for_no_owner_through_the_owner_services(agent, owner):
    actor = user_actor(agent)
    assert not panel_member(agent)
    assert not may_act_for(actor, owner.pk, ORDERS_WRITE) and not may_act_for(actor, owner.pk, REFUNDS_WRITE)


def test_a_disabled_panel_user_acts_for_no_one(owner):
    user = factories.PanelUserFactory(owner=owner, is_active=False)
    assert not panel_member(user)
    assert not may_act_for(user_actor(user), owner.pk, ORDERS_WRITE)


def test_a_user_without_an_owner_or_role_acts_for_no_one(owner):
    staff = factories.UserFactory(is_staff=True, panel_role="owner")
    no_role = factories.UserFactory(owner=owner)
    assert not panel_member(staff) and not panel_member(no_role)
    assert not may_act_for(user_actor(staff), owner.pk, ORDERS_WRITE)
    assert not may_act_for(user_actor(no_role), owner.pk, ORDERS_WRITE)


def test_an_api_key_acts_within_its_scopes(owner, other_business):
    actor = Actor(owner_id=owner.pk, who=API_KEY, scopes=frozenset({ORDERS_WRITE}))
    assert may_act_for(actor, owner.pk, ORDERS_WRITE)
    assert not may_act_for(actor, owner.pk, REFUNDS_WRITE)
    assert not may_act_for(actor, other_business.owner_id, ORDERS_WRITE)


def test_services_refuse_a_scope_the_actor_lacks_and_hide_other_owners_orders(owner, other_business):
    session = factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business))
    order = factories.OrderFactory(session=session, number="1", status="confirmed", currency="USD", total_cents=500)
    reader = Actor(owner_id=other_business.owner_id, who=API_KEY, scopes=frozenset({"orders:read"}))
    with pytest.raises(DomainError) as refused:
        order_services.order_set_fulfilment_status(order_id=order.pk, actor=reader, status="ready")
    assert refused.value.code == "FORBIDDEN"
    stranger = user_actor(factories.PanelUserFactory(owner=owner))
    with pytest.raises(DomainError) as hidden:
        order_services.order_set_fulfilment_status(order_id=order.pk, actor=stranger, status="ready")
    assert hidden.value.code == "NOT_FOUND"
