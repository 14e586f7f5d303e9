"""Agent API: the menu of the business the agent is serving right now."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from apps.api.views import AgentAPIView, AgentRequest
from apps.menu import selectors as menu_selectors
from apps.menu.bodies import MenuOut, menu_body
from apps.sessions import selectors as session_selectors


class MenuView(AgentAPIView):
    @extend_schema(responses={200: MenuOut}, summary="The active menu of the business of the agent's live session")
    def get(self, request: AgentRequest) -> Response:
        session = session_selectors.current_session_for_agent(request.user)
        categories = menu_selectors.active_catalog_categories(business_id=session.business_id)
        return Response(menu_body(categories, request=request))
