from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Sender(models.TextChoices):
    KIOSK = "kiosk", _("Kiosk")
    AGENT = "agent", _("Agent")


class ChatMessage(models.Model):
    """One short text message of a session's chat, between its kiosk and its agent (used when the
    video is unavailable or either side prefers to write). Plain text, kept with the session;
    clients show it as text, never as markup."""

    session = models.ForeignKey("agent_sessions.Session", on_delete=models.CASCADE, related_name="chat_messages")
    sender = models.CharField(max_length=8, choices=Sender.choices)
    agent = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    text = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["session", "id"])]

    def __str__(self) -> str:
        return f"{self.sender} message in session {self.session_id}"
