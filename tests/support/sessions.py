"""Session test data: one session in every status, for the status and list bodies."""

from datetime import timedelta

from django.utils import timezone

from tests import factories


def sessions_in_every_state(business, agent):
    """One kiosk per session: a kiosk has at most one open session."""
    now = timezone.now()

    def kiosk():
        return factories.KioskFactory(business=business)

    agent.avatar_url = "https://cdn.example.com/a/7.png"
    agent.save(update_fields=["avatar_url"])
    gone_agent = factories.AgentFactory(owner=business.owner)
    sessions = [
        factories.SessionFactory(kiosk=kiosk(), status="pending"),
        factories.SessionFactory(kiosk=kiosk(), status="active", agent=agent, accepted_at=now),
        factories.SessionFactory(kiosk=kiosk(), status="payment", agent=agent, accepted_at=now),
        factories.SessionFactory(
            kiosk=kiosk(),
            status="completed",
            agent=agent,
            accepted_at=now - timedelta(seconds=125, microseconds=500),
            ended_at=now,
            end_reason="completed",
        ),
        factories.SessionFactory(kiosk=kiosk(), status="abandoned", ended_at=now, end_reason="kiosk_cancelled"),
        factories.SessionFactory(
            kiosk=kiosk(),
            status="failed",
            agent=gone_agent,
            accepted_at=now,
            ended_at=now,
            end_reason="technical_issue",
        ),
    ]
    gone_agent.delete()  # the session keeps its history with no agent (SET_NULL)
    return sessions
