"""The wait estimate (apps/routing/wait_estimate.py) on hand-computed cases: the number of
seconds within 25 % of the most likely waits, by wave size, language and place in the line."""

from apps.routing.wait_estimate import Pool, estimate_wait, likeliest_within


def test_the_likeliest_value_within_25_percent_of_the_samples():
    # 3 is within 25 % of 2.5, 3, 3 and 3.5 (4 of 5); 4 only of 3.5; a mean (3.6) would round to 4.
    assert likeliest_within((2.5, 3, 3, 3.5, 6)) == 3
    # 20 and 40 cannot both be within 25 % of one value: the tie goes to the one nearest the mean.
    assert likeliest_within((20, 40)) == 30
    assert likeliest_within((0.2,)) == 1  # never below a second


def test_a_free_agent_answers_as_recent_waves_of_the_same_size_did():
    answers = tuple((3.0, 3) for _ in range(5)) + tuple((5.0, 1) for _ in range(5))
    pool = Pool(available=3, signed_in=3, answer_seconds=4, handle_seconds=100, answers=answers, offer_size=3)
    three_free = Pool(**{**pool.__dict__, "free_languages": (frozenset(),) * 3})
    one_free = Pool(**{**pool.__dict__, "free_languages": (frozenset({"en"}), frozenset({"es"}), frozenset({"es"}))})
    assert estimate_wait(1, three_free, language="en") == 3  # a wave of three: answered like waves of three
    assert estimate_wait(1, one_free, language="en") == 5  # one English speaker free: like waves of one


def test_with_nobody_free_the_customer_waits_for_an_older_wave_then_its_own():
    answers = tuple((4.0, 1) for _ in range(5))
    pool = Pool(available=2, signed_in=2, answer_seconds=4, handle_seconds=100, answers=answers, free_languages=())
    # The older session's wave is on average half-way through its 4 s answer; then the other
    # agent, freed by that answer, is offered this one: 2 s + 4 s.
    assert estimate_wait(2, pool, language="en") == 6


def test_nobody_speaking_the_language_waits_for_the_any_language_time():
    answers = tuple((4.0, 1) for _ in range(5))
    english = (frozenset({"en"}),)
    pool = Pool(
        available=1,
        signed_in=1,
        answer_seconds=4,
        handle_seconds=100,
        answers=answers,
        available_languages=english,
        free_languages=english,
        any_language_after=30,
    )
    assert estimate_wait(1, pool, language="es", waited=0) == 34  # 30 s, then an answer
    assert estimate_wait(1, pool, language="es", waited=10) == 24  # re-estimated as the wait goes on
    assert estimate_wait(1, pool, language="es", waited=45) == 4
    assert estimate_wait(1, pool, language="en") == 4


def test_beyond_the_available_agents_the_wait_is_for_a_busy_agent_to_free_up():
    # One busy agent, 60 s into its session; handle times all 100 s (log-normal of spread 0.1):
    # it frees in about 40 s, then answers in 5 s, so the wait is about 45 s. The window of
    # +-25 % is wider above than below (0.8 e to 4/3 e), so the likeliest e is a little below it.
    pool = Pool(available=0, signed_in=1, answer_seconds=5, handle_seconds=100, serving_for=(60,), handles=(100.0,) * 5)
    first = estimate_wait(1, pool)
    assert first is not None and 40 <= first <= 48
    # The next customer waits a full round more (100 s handle + 5 s answer).
    second = estimate_wait(2, pool)
    assert second is not None and 140 <= second <= 155
    # An agent long past every handle time seen may end any moment: a short wait.
    late = Pool(**{**pool.__dict__, "serving_for": (400.0,)})
    assert estimate_wait(1, late) is not None and estimate_wait(1, late) <= 15  # type: ignore[operator]


def test_the_estimate_is_null_without_a_basis():
    assert estimate_wait(1, Pool(available=0, signed_in=0, answer_seconds=5, handle_seconds=100)) is None
    assert estimate_wait(1, Pool(available=1, signed_in=1, answer_seconds=None, handle_seconds=100)) is None
    assert estimate_wait(2, Pool(available=1, signed_in=1, answer_seconds=5, handle_seconds=None)) is None


def test_a_video_customer_waits_for_the_conversation_a_chat_takes_the_free_seat():
    # One agent of three seats, available (a seat free) but 60 s into a video conversation;
    # conversations and handle times all 100 s.
    pool = Pool(
        available=1,
        signed_in=1,
        answer_seconds=5,
        handle_seconds=100,
        answers=tuple((5.0, 1) for _ in range(5)),
        handles=(100.0,) * 5,
        video_available=0,  # the video rule: its conversation must end first
        video_serving_for=(60.0,),
        seats_held=0,  # no agent is full
    )
    chat = estimate_wait(1, pool, video=False)
    video = estimate_wait(1, pool, video=True)
    assert chat == 5  # a seat is free: answered as a free agent answers
    assert video is not None and 40 <= video <= 48  # about 40 s to the payment, then 5 s


def test_a_chat_waits_for_the_first_of_the_held_sessions_not_the_agents_whole_load():
    # Two full agents of three seats each, their six sessions 10 to 90 s in; handle times 100 s.
    seats = Pool(
        available=0,
        signed_in=2,
        answer_seconds=5,
        handle_seconds=100,
        serving_for=(10.0, 20.0, 30.0, 50.0, 70.0, 90.0),
        handles=(100.0,) * 5,
        video_available=0,
        video_serving_for=(90.0, 70.0),
        seats_held=6,
    )
    one_each = Pool(**{**seats.__dict__, "serving_for": (90.0, 70.0), "seats_held": None})
    with_seats, per_agent = estimate_wait(3, seats, video=False), estimate_wait(3, one_each, video=False)
    # The third customer: with one session per agent it waits a second round (past 100 s);
    # with six sessions held, the third of them to end (the one 50 s in) frees a seat by then.
    assert with_seats is not None and per_agent is not None
    assert with_seats < 60 < 100 < per_agent, (with_seats, per_agent)


def test_without_the_seat_fields_the_estimate_is_one_session_per_agent():
    pool = Pool(available=0, signed_in=1, answer_seconds=5, handle_seconds=100, serving_for=(60,), handles=(100.0,) * 5)
    assert estimate_wait(1, pool, video=True) == estimate_wait(1, pool, video=False) == estimate_wait(1, pool)


def test_a_chat_passes_the_video_customers_ahead_who_wait_for_a_conversation():
    pool = Pool(
        available=1,
        signed_in=1,
        answer_seconds=5,
        handle_seconds=100,
        answers=tuple((5.0, 1) for _ in range(5)),
        handles=(100.0,) * 5,
        video_available=0,
        video_serving_for=(60.0,),
        seats_held=0,
    )
    # Second in line behind a video customer the agent cannot take: the seat is offered to it.
    assert estimate_wait(2, pool, video=False, video_ahead=1) == 5
    # Behind a chat, it waits as the second customer of one free seat.
    behind_chat = estimate_wait(2, pool, video=False, video_ahead=0)
    assert behind_chat is not None and behind_chat > 5
