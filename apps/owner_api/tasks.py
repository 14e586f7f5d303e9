from celery import shared_task
from oauth2_provider.models import clear_expired


@shared_task(name="owner_api.purge_expired_tokens", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def purge_expired_tokens() -> None:
    """Access tokens live an hour; django-oauth-toolkit's own clean-up deletes the expired ones."""
    clear_expired()
