from django.apps import AppConfig


class KiosksConfig(AppConfig):
    name = "apps.kiosks"
    label = "kiosks"
