from django.apps import AppConfig


class OwnerApiConfig(AppConfig):
    name = "apps.owner_api"
    label = "owner_api"
    verbose_name = "Owner API keys"
