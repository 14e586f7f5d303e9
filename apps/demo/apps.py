from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Demo tenants (`manage.py seed_demo`) and the `/` page that lists every surface. It builds on
    every domain app, so it sits with the surfaces; apps/core imports none of it."""

    name = "apps.demo"
    label = "demo"
