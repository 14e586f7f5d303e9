from django.apps import AppConfig


class MenuConfig(AppConfig):
    name = "apps.menu"
    label = "menu"
