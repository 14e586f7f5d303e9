"""Reads of the demo processor."""

from apps.demo_processor.models import DemoAccount


def demo_account_exists(account_id: str) -> bool:
    return DemoAccount.objects.filter(account_id=account_id).exists()
