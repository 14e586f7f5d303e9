from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PanelConfig(AppConfig):
    name = "apps.panel"
    label = "panel"
    verbose_name = _("Owner panel")
