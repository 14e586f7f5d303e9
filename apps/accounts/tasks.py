from celery import shared_task

from apps.accounts import services


@shared_task(name="accounts.purge_login_challenges", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def purge_login_challenges() -> int:
    return services.login_challenges_purge()
