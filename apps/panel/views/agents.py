"""Agents (owner only): list with status and last seen, create, languages, disable, reset 2FA,
and a sign-in locked after too many failed attempts (apps/accounts/login_throttle.py), which
the owner may unlock."""

import zoneinfo
from collections.abc import Mapping
from dataclasses import dataclass

from django.contrib import messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from apps.accounts import login_throttle
from apps.accounts import selectors as account_selectors
from apps.accounts import services as account_services
from apps.accounts.models import User
from apps.core.errors import DomainError
from apps.panel.access import OWNER_ONLY, PanelRequest, owned_or_404, panel_page
from apps.panel.forms import AgentCreateForm, AgentLanguagesForm
from apps.panel.pages import error_text, object_action, render_page
from apps.reports.ranges import owner_time_zone
from apps.reports.sessions_report import agent_figures_today
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
            messages.success(request, f"Agent {agent.email} created. They sign in to the agent dashboard.")
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
            locked = f"Sign-in locked until {until} after {lockout.failures} failed attempts"
        rows.append(AgentRow(agent=agent, today=figures.get(agent.pk), sign_in_locked=locked))
    return render_page(request, "panel/agents.html", {"agents": rows, "form": form}, section="agents")


agent_disable = object_action(
    _agent,
    lambda agent: ending.agent_disable(agent=agent),
    "{0.email} is disabled and its access tokens are revoked.",
    _to_agents,
    access=OWNER_ONLY,
    id_name="agent_id",
)
agent_reset_two_factor = object_action(
    _agent,
    lambda agent: account_services.agent_reset_two_factor(agent=agent),
    "Two-factor sign-in of {0.email} is reset; they can enrol again.",
    _to_agents,
    access=OWNER_ONLY,
    id_name="agent_id",
)
agent_unlock_sign_in = object_action(
    _agent,
    lambda agent: login_throttle.unlock(agent.email),
    "{0.email} may sign in again.",
    _to_agents,
    access=OWNER_ONLY,
    id_name="agent_id",
)


@panel_page(OWNER_ONLY)
@require_POST
def agent_languages(request: PanelRequest, agent_id: int) -> HttpResponse:
    """The languages the agent serves (the router offers it customers of these first)."""
    agent = _agent(request, agent_id)
    form = AgentLanguagesForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Languages: at most 200 characters.")
        return redirect("panel:agents")
    try:
        languages = account_services.agent_set_languages(agent=agent, languages=form.cleaned_data["languages"])
    except DomainError as exc:
        messages.error(request, f"{agent.email}: {error_text(exc)}")
    else:
        shown = ", ".join(languages) or "every language"
        messages.success(request, f"{agent.email} serves {shown}.")
    return redirect("panel:agents")
