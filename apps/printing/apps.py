from django.apps import AppConfig


class PrintingConfig(AppConfig):
    name = "apps.printing"
    label = "printing"
