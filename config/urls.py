"""One host serves every surface (DESIGN.md URL map). Order matters: the kiosk and token
surfaces sit under /api/ too, so they are matched before the agent surface's catch-all."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from apps.api.health import healthz, readyz

urlpatterns = [
    path("api/public/", include("config.urls_kiosk")),
    path("api/", include("config.urls_integrations")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("api/", include("config.urls_agent")),
    path("admin/", admin.site.urls),
    path("healthz", healthz),
    path("readyz", readyz),
]
