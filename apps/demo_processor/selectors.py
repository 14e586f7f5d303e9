"""Reads of the demo processor."""

from apps.demo_processor.models import DemoAccount, DemoReader


def demo_account_exists(account_id: str) -> bool:
    return DemoAccount.objects.filter(account_id=account_id).exists()


def demo_reader_exists(reader_id: str) -> bool:
    return DemoReader.objects.filter(reader_id=reader_id).exists()
