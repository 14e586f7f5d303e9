"""One async and one sync view, each answering the same small JSON body as /bench/ping."""

from django.http import JsonResponse
from django.urls import path


async def ping_async(request):
    return JsonResponse({"ok": True})


def ping_sync(request):
    return JsonResponse({"ok": True})


urlpatterns = [path("async", ping_async), path("sync", ping_sync)]
