from django.apps import AppConfig


class DisplaysConfig(AppConfig):
    name = "apps.displays"
    label = "displays"
