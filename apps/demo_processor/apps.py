from django.apps import AppConfig


class DemoProcessorConfig(AppConfig):
    name = "apps.demo_processor"
    label = "demo_processor"
    verbose_name = "Demo payment processor"
