"""The interactive API docs at /api/docs/ (Swagger UI, served from this host by
drf-spectacular-sidecar) under the strict Content-Security-Policy of apps/api/csp.py: the
"split" view sends its start-up script as a file of its own (`?script`), and the page's
template (templates/api/swagger_ui.html) takes its few style rules from a style sheet, so the
page has nothing inline for the policy to refuse."""

from drf_spectacular.views import SpectacularSwaggerSplitView


class ApiDocsView(SpectacularSwaggerSplitView):
    template_name = "api/swagger_ui.html"
