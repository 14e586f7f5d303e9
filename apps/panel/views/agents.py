"""Agents (owner only): list with status and last seen, create, languages, disable, reset 2FA,
and a sign-in locked after too many failed attempts (apps/accounts/login_throttle.py), which
the owner may unlock."""

import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from apps.accounts import login_throttle
from apps.accounts import selectors as account_selectors
from apps.accounts import services as account_services
from apps.accounts.models import User
from apps.core.errors import DomainError
from apps.panel.access import OWNER_ONLY, PanelRequest, owned_or_404, panel_page
from apps.panel.forms import AgentCapacityForm, AgentCreateForm, AgentLanguagesForm
from apps.panel.pages import error_message, error_text, form_action, object_action, render_page
from apps.reports.ranges import owner_time_zone
from apps.reports.sessions_report import agent_figures_today
from apps.routing import services as routing_services
from apps.routing.routing_settings import routing_for_owner
from apps.sessions import ending


@dataclass(frozen=True)
class AgentRow:
    """An agent on the Agents page, with today's figures (sessions, handle time, conversion,
    sales) and its sign-in lockout in words, if any."""

    agent: User
    today: Mapping[str, object] | None
    sign_in_locked: str | None


def _agents(request: PanelRequest) -> QuerySet[User]:
    return account_selectors.agents_of_owner(request.user.owner_id)


def _agent(request: PanelRequest, agent_id: int) -> User:
    return owned_or_404(_agents(request), request, pk=agent_id)


def _to_agents(agent: User) -> HttpResponseRedirect:
    return redirect("panel:agents")


LANGUAGES_INVALID = gettext_lazy("Languages: at most 200 characters.")
CAPACITY_INVALID = gettext_lazy("Customers at once: a whole number from 1 to 10, or empty for the restaurant's.")
_agent_action = object_action(_agent, _to_agents, access=OWNER_ONLY, id_name="agent_id")


@panel_page(OWNER_ONLY)
def agent_list(request: PanelRequest) -> HttpResponseBase:
    form = AgentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        fields = dict(form.cleaned_data)
        languages = fields.pop("languages")
        try:
            with transaction.atomic():
                agent = account_services.agent_create(owner=request.user.owner, **fields)
                account_services.agent_set_languages(agent=agent, languages=languages)
        except DomainError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(
                request, _("Agent {email} created. They sign in to the agent dashboard.").format(email=agent.email)
            )
            return redirect("panel:agents")
    agents = list(_agents(request).order_by("-is_active", "name", "pk"))
    figures = agent_figures_today(request.user.owner_id)
    lockouts = login_throttle.lockouts_of([agent.email for agent in agents])
    zone = zoneinfo.ZoneInfo(owner_time_zone(request.user.owner_id))
    rows = []
    for agent in agents:
        lockout = lockouts.get(agent.email)
        locked = None
        if lockout is not None:
            until = lockout.until.astimezone(zone).strftime("%H:%M")
            locked = _("Sign-in locked until {until} after {failures} failed attempts").format(
                until=until, failures=lockout.failures
            )
        rows.append(AgentRow(agent=agent, today=figures.get(agent.pk), sign_in_locked=locked))
    context = {"agents": rows, "form": form, "owner_capacity": routing_for_owner(request.user.owner_id).agent_capacity}
    return render_page(request, "panel/agents.html", context, section="agents")


@_agent_action
def agent_disable(agent: User) -> str:
    ending.agent_disable(agent=agent)
    return _("{email} is disabled and its access tokens are revoked.").format(email=agent.email)


@_agent_action
def agent_reset_two_factor(agent: User) -> str:
    account_services.agent_reset_two_factor(agent=agent)
    return _("Two-factor sign-in of {email} is reset; they can enrol again.").format(email=agent.email)


@_agent_action
def agent_unlock_sign_in(agent: User) -> str:
    login_throttle.unlock(agent.email)
    return _("{email} may sign in again.").format(email=agent.email)


@form_action(_agent, _to_agents, AgentLanguagesForm, access=OWNER_ONLY, id_name="agent_id", invalid=LANGUAGES_INVALID)
def agent_languages(request: PanelRequest, agent: User, data: dict[str, Any]) -> str:
    """The languages the agent serves (the router offers it customers of these first)."""
    try:
        languages = account_services.agent_set_languages(agent=agent, languages=data["languages"])
    except DomainError as exc:  # said with the agent's address: the page lists every agent
        said = f"{agent.email}: {error_message(exc)}"
        raise DomainError(exc.code, said, details=exc.details) from exc
    shown = ", ".join(languages) or _("every language")
    return _("{email} serves {shown}.").format(email=agent.email, shown=shown)


@form_action(_agent, _to_agents, AgentCapacityForm, access=OWNER_ONLY, id_name="agent_id", invalid=CAPACITY_INVALID)
def agent_capacity(request: PanelRequest, agent: User, data: dict[str, Any]) -> str:
    """How many customers the agent serves at once (empty: the restaurant's number)."""
    capacity = routing_services.agent_capacity_set(agent=agent, capacity=data["capacity"])
    if capacity is None:
        return _("{email} serves as many customers at once as the restaurant's setting says.").format(email=agent.email)
    return _("{email} serves up to {capacity} customers at once.").format(email=agent.email, capacity=capacity)
