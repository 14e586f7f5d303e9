"""The agent and token surfaces' base views: their callers are this app's users (an agent signed in
with the cookie session, or an owner's agent's bearer token), so they live here, not in apps/api,
which sits below the domain apps (docs/decisions/structure.md "Layers")."""

from typing import TYPE_CHECKING

from rest_framework.request import Request
from rest_framework.views import APIView

from apps.accounts.api.authentication import BearerTokenAuthentication
from apps.api.authentication import AgentSessionAuthentication
from apps.api.permissions import HasOwnerToken, IsAgent
from apps.api.throttles import AgentThrottle, TokenApiThrottle
from apps.api.views import MethodCheckedFirst, ensure_tls

# What the surfaces' authentication and permission classes guarantee about their requests, for
# the type checker (DRF types `user` for any scheme): at runtime it is DRF's Request.
if TYPE_CHECKING:
    from typing import Any

    from apps.accounts.models import PersonalAccessToken, User
    from apps.api.typed_request import SurfaceRequest

    # After agent or token authentication and IsAgent or HasOwnerToken: `user` is the agent.
    AgentRequest = SurfaceRequest[User, Any]
    # After BearerTokenAuthentication: `auth` is the personal access token presented.
    TokenRequest = SurfaceRequest[User, PersonalAccessToken]
else:
    AgentRequest = TokenRequest = Request


class AgentAPIView(MethodCheckedFirst, APIView):
    """Agent API: `request.user` is the signed-in agent; mutating calls carry X-XSRF-TOKEN."""

    authentication_classes = [AgentSessionAuthentication]
    permission_classes = [IsAgent]
    throttle_classes = [AgentThrottle]


class TokenAPIView(MethodCheckedFirst, APIView):
    """Owner-scoped token API: `request.user` is the token's agent, `request.auth` the token."""

    authentication_classes = [BearerTokenAuthentication]
    permission_classes = [HasOwnerToken]
    throttle_classes = [TokenApiThrottle]

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        ensure_tls(request)
        super().initial(request, *args, **kwargs)
