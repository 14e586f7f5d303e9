"""Agents (owner only): list with status and last seen, create, disable, reset 2FA."""

from django.contrib import messages
from django.db.models import Exists, OuterRef
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from apps.accounts import services as account_services
from apps.accounts.models import SealedTotpDevice, User
from apps.billing.services import ending
from apps.core.errors import DomainError
from apps.panel.access import OWNER_ONLY, owned_or_404, panel_page
from apps.panel.forms import AgentCreateForm
from apps.panel.pages import error_text, render_page


def _agents(request):
    return User.objects.filter(owner_id=request.user.owner_id, is_agent=True)


@panel_page(OWNER_ONLY)
def agent_list(request):
    form = AgentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            agent = account_services.agent_create(owner=request.user.owner, **form.cleaned_data)
        except DomainError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, f"Agent {agent.email} created. They sign in to the agent dashboard.")
            return redirect("panel:agents")
    has_totp = Exists(SealedTotpDevice.objects.filter(user=OuterRef("pk"), confirmed=True))
    agents = _agents(request).annotate(has_totp=has_totp).order_by("-is_active", "name", "pk")
    return render_page(request, "panel/agents.html", {"agents": agents, "form": form}, section="agents")


@panel_page(OWNER_ONLY)
@require_POST
def agent_disable(request, agent_id: int):
    agent = owned_or_404(_agents(request), request, pk=agent_id)
    ending.agent_disable(agent=agent)
    messages.success(request, f"{agent.email} is disabled and its access tokens are revoked.")
    return redirect("panel:agents")


@panel_page(OWNER_ONLY)
@require_POST
def agent_reset_two_factor(request, agent_id: int):
    agent = owned_or_404(_agents(request), request, pk=agent_id)
    account_services.agent_reset_two_factor(agent=agent)
    messages.success(request, f"Two-factor sign-in of {agent.email} is reset; they can enrol again.")
    return redirect("panel:agents")
