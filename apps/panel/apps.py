from django.apps import AppConfig


class PanelConfig(AppConfig):
    name = "apps.panel"
    label = "panel"
    verbose_name = "Owner panel"
