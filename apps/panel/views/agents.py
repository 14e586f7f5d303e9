"""Agents (owner only): list with status and last seen, create, languages, disable, reset 2FA,
and a sign-in locked after too many failed attempts (apps/accounts/login_throttle.py), which
the owner may unlock."""

import zoneinfo

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.accounts import login_throttle
from apps.accounts import selectors as account_selectors
from apps.accounts import services as account_services
from apps.core.errors import DomainError
from apps.panel.access import OWNER_ONLY, owned_or_404, panel_page
from apps.panel.forms import AgentCreateForm, AgentLanguagesForm
from apps.panel.pages import error_text, render_page
from apps.reports.ranges import owner_time_zone
from apps.reports.sessions_report import agent_figures_today
from apps.sessions import ending


def _agents(request):
    return account_selectors.agents_of_owner(request.user.owner_id)


@panel_page(OWNER_ONLY)
def agent_list(request):
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
    for agent in agents:
        agent.today = figures.get(agent.pk)  # issue 26: today's sessions, handle time, conversion, sales
        lockout = lockouts.get(agent.email)
        if lockout is not None:
            until = lockout.until.astimezone(zone).strftime("%H:%M")
            agent.sign_in_locked = f"Sign-in locked until {until} after {lockout.failures} failed attempts"
    return render_page(request, "panel/agents.html", {"agents": agents, "form": form}, section="agents")


@panel_page(OWNER_ONLY)
@require_POST
def agent_disable(request, agent_id: int):
    agent = owned_or_404(_agents(request), request, pk=agent_id)
    ending.agent_disable(agent=agent)
    messages.success(request, _("{email} is disabled and its access tokens are revoked.").format(email=agent.email))
    return redirect("panel:agents")


@panel_page(OWNER_ONLY)
@require_POST
def agent_reset_two_factor(request, agent_id: int):
    agent = owned_or_404(_agents(request), request, pk=agent_id)
    account_services.agent_reset_two_factor(agent=agent)
    messages.success(
        request, _("Two-factor sign-in of {email} is reset; they can enrol again.").format(email=agent.email)
    )
    return redirect("panel:agents")


@panel_page(OWNER_ONLY)
@require_POST
def agent_languages(request, agent_id: int):
    """The languages the agent serves (the router offers it customers of these first)."""
    agent = owned_or_404(_agents(request), request, pk=agent_id)
    form = AgentLanguagesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Languages: at most 200 characters."))
        return redirect("panel:agents")
    try:
        languages = account_services.agent_set_languages(agent=agent, languages=form.cleaned_data["languages"])
    except DomainError as exc:
        messages.error(request, _("{email}: {exc}").format(email=agent.email, exc=error_text(exc)))
    else:
        shown = ", ".join(languages) or "every language"
        messages.success(request, _("{email} serves {shown}.").format(email=agent.email, shown=shown))
    return redirect("panel:agents")


@panel_page(OWNER_ONLY)
@require_POST
def agent_unlock_sign_in(request, agent_id: int):
    agent = owned_or_404(_agents(request), request, pk=agent_id)
    login_throttle.unlock(agent.email)
    messages.success(request, _("{email} may sign in again.").format(email=agent.email))
    return redirect("panel:agents")
