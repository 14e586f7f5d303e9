"""The live-membership rule's race (apps/realtime/membership.py): a revoking broadcast that arrives
while a subscription's rule is being asked means the answer may predate the change (the broadcast
goes out after its commit), so the rule is asked again and its second answer stands."""

import asyncio
import threading

import pytest

from apps.realtime import membership

CHANNEL = "private-test-rule.1"
SIGNED = '{"user_id":"user.3"}'


@pytest.fixture
def rule():
    answers: list[object] = []  # True/False, or "revoke": a revoke arrives during that read
    asked: list[object] = []

    def ask(channel: str, member: object) -> bool:
        asked.append(member)
        if len(asked) == 1 and answers and answers[0] == "revoke":
            answers.pop(0)
            delivered = threading.Event()

            def revoke() -> None:  # on the loop, as the hub delivers it
                membership.note_revoked([CHANNEL])
                delivered.set()

            loop.call_soon_threadsafe(revoke)  # the revoke, mid-read
            assert delivered.wait(5)  # the read is still under way when the revoke is delivered
            return True  # what the database said before the change's commit
        return bool(answers.pop(0)) if answers else True

    loop = asyncio.new_event_loop()
    membership.register("private-test-rule.", ask)
    yield loop, answers, asked
    membership._rules.pop("private-test-rule.")
    loop.close()


def test_a_revoke_during_the_check_makes_the_rule_answer_again(rule):
    loop, answers, asked = rule
    answers.extend(["revoke", False])
    assert loop.run_until_complete(membership.member_now(CHANNEL, SIGNED)) is False
    assert asked == ["user.3", "user.3"]
    assert membership._asking == {}


def test_without_a_revoke_the_rule_is_asked_once_and_without_a_signer_not_at_all(rule):
    loop, answers, asked = rule
    answers.append(True)
    assert loop.run_until_complete(membership.member_now(CHANNEL, SIGNED)) is True
    assert loop.run_until_complete(membership.member_now(CHANNEL, None)) is False
    assert loop.run_until_complete(membership.member_now(CHANNEL, '{"user_id":true}')) is False
    assert loop.run_until_complete(membership.member_now("private-other.1", None)) is True  # no rule there
    assert asked == ["user.3"]
