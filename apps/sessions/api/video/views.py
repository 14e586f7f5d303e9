"""The two video token endpoints (GET token, POST refresh), one shape for every surface: each
surface brings its base view (its auth and error envelope) and who the caller is."""

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.api.inputs import validated
from apps.sessions.api.video.serializers import VideoTokenIn, VideoTokenOut
from apps.sessions.video_call import VideoToken

# issue(request, channel, role) -> the token for the caller of that surface (the request as the
# surface's auth made it: request.user an agent, request.auth a kiosk)
Issue = Callable[[Any, str, str], VideoToken]


def video_token_views(surface: type[APIView], issue: Issue, *, summary: str) -> tuple[type[APIView], type[APIView]]:
    """(GET token view, POST refresh view) on `surface`'s auth."""

    def answer(request: Request, data: dict[str, str]) -> Response:
        return Response(VideoTokenOut(issue(request, data["channel"], data["role"])).data)

    class VideoTokenView(surface):  # type: ignore[valid-type,misc]
        @extend_schema(parameters=[VideoTokenIn], responses={200: VideoTokenOut}, summary=summary)
        def get(self, request: Request) -> Response:
            return answer(request, validated(VideoTokenIn, request.query_params))

    class VideoTokenRefreshView(surface):  # type: ignore[valid-type,misc]
        @extend_schema(
            request=VideoTokenIn,
            responses={200: VideoTokenOut},
            summary="A fresh video token for the same channel, before the current one expires",
        )
        def post(self, request: Request) -> Response:
            return answer(request, validated(VideoTokenIn, request.data))

    return VideoTokenView, VideoTokenRefreshView
