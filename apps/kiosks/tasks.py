from celery import shared_task

from apps.kiosks import services


@shared_task(name="kiosks.mark_offline", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def mark_offline_kiosks() -> int:
    return services.kiosks_mark_offline()


@shared_task(name="kiosks.purge_pairing_codes", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def purge_pairing_codes() -> int:
    return services.pairing_codes_purge()
