"""Words the panel shows for the codes the data keeps."""

# How a session ended (apps.sessions.models.EndReason), as an owner reads it.
END_REASONS = {
    "completed": "Completed",
    "customer_abandoned": "Customer left (agent ended)",
    "technical_issue": "Technical issue",
    "refused_service": "Service refused",
    "kiosk_cancelled": "Customer cancelled at the kiosk",
    "kiosk_inactivity": "No answer at the kiosk (inactivity)",
    "timed_out": "No agent answered in time",
}


def end_reason_label(code: str) -> str:
    return END_REASONS.get(code) or (code.replace("_", " ").capitalize() if code else "—")
