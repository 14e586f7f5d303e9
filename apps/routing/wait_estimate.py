"""The wait a waiting customer is shown (`queue.estimated_wait_seconds`): a pure function of what
the server reads about the pool (apps/routing/queue.py builds the `Pool`), so bench/shift.py runs
the very same code on a simulated shift and tests/routing/test_wait_estimate.py checks it by hand.

The kiosk's promise is judged within +-25 % of the actual wait (docs/scaling.md), so the estimate is
not a mean: it is the number of seconds most likely to be within 25 % of the wait, given what the
wait may be. Three cases:

- an agent who speaks the customer's language is available for it (position within the
  available agents): the wait is an agent's answer time. Of the recent answer times, the value
  within 25 % of the most of them (a wave of K agents is answered by the quickest, so the
  answers bunch up early and a mean overshoots);
- available agents, none speaking the language: the session reaches every agent once it has
  waited the owner's any-language time; the rest of that time, then an answer;
- beyond the available agents: the customer waits for the (position - available)-th agent to
  free up, then an answer. With agents serving several customers, a video customer counts only
  the available agents in no video conversation and waits for a conversation to end (or a
  seat); a chat counts every available agent (each has a seat) and waits for the first of the
  held sessions to end. Each busy agent's handle time is taken as log-normal (fitted to the
  recent handle times) and conditioned on the time it has already spent in its session; an
  available agent frees after its answer and a full handle time. The chance that at least that
  many agents are free by a time t is a Poisson-binomial sum; the estimate is the e that
  maximises P(0.8 e <= wait <= 4/3 e), i.e. P(|e - wait| <= 25 % of wait).

Null with no basis: no recent answer, nobody signed in, or (beyond the available agents) no
recent handle time.
"""

import math
from dataclasses import dataclass

TOLERANCE = 0.25
DEFAULT_SIGMA = 0.5  # log-normal spread of handle times before there are enough to fit one
MIN_SIGMA = 0.1
MAX_AGENTS_CONSIDERED = 30  # beyond the position, the agents least likely to free first add nothing
GRID_RATIO = 1.02  # candidate estimates: a geometric grid, 2 % apart (well inside the 25 %)


@dataclass(frozen=True)
class Pool:
    """What the estimate is made from (apps/routing/queue.py reads it from the database;
    bench/shift.py from its simulation)."""

    available: int
    signed_in: int
    answer_seconds: float | None  # mean time from offer to accept (else from start to accept)
    handle_seconds: float | None  # mean time from accept to end
    serving_for: tuple[float, ...] = ()  # seconds each busy agent of the pool has been in its session
    # The recent answer times themselves, each with the size of the wave it answered (a wave of
    # three is answered by the quickest of three); without them, the mean answer_seconds.
    answers: tuple[tuple[float, int], ...] = ()
    handles: tuple[float, ...] = ()  # the recent handle times themselves (mean only: handle_seconds)
    # One entry per available agent: the languages it speaks (empty: every language). Empty
    # tuple: not known, every available agent is taken to speak the customer's language.
    available_languages: tuple[frozenset[str], ...] = ()
    # The same for the available agents holding no offer: those a new session's wave goes to.
    free_languages: tuple[frozenset[str], ...] | None = None  # None: not known
    any_language_after: float | None = None  # the owner's any-language time, seconds
    # The languages of every agent at work (available or busy): with no speaker among them the
    # session is offered in any language at once (router.nobody_speaks). None: not known.
    at_work_languages: tuple[frozenset[str], ...] | None = None
    offer_size: int = 3  # K: the agents a session is offered to at once
    # Agents serving several customers (apps/sessions/seats.py). A video customer needs an agent
    # in no video conversation: of the available agents, those (None: every available agent);
    # and, for each agent that cannot take one now (full, or in a conversation), the seconds into
    # what must end first: its video conversation, else its oldest session (None: serving_for).
    video_available: int | None = None
    video_serving_for: tuple[float, ...] | None = None
    # A chat needs a seat: with seats_held set, serving_for lists every session held by the agents
    # with no seat free, and each frees a seat when it ends (None: one session per agent).
    seats_held: int | None = None


def estimate_wait(
    position: int, pool: Pool, *, language: str = "", waited: float = 0.0, video: bool = True, video_ahead: int = 0
) -> int | None:
    """Seconds until the customer at `position` (1-based, among the pool's waiting sessions) who
    speaks `language`, is a video customer (else a chat) and has waited `waited` seconds so far
    is answered; None with no basis. `video_ahead`: how many of those ahead are video customers
    (a chat passes those who wait for a video conversation to end: the router offers it the seat)."""
    if pool.answer_seconds is None or pool.signed_in == 0:
        return None
    available, blocking = _seats_for(pool, video)
    if not video and pool.video_available is not None:
        position -= max(0, video_ahead - pool.video_available)
    beyond = position - available
    if beyond <= 0:
        if _speakers(pool.at_work_languages, language) == 0:
            language = ""  # no speaker at work: offered in any language at once (router.nobody_speaks)
        if _speakers(pool.available_languages, language) == 0 and pool.any_language_after is not None:
            return round(max(0.0, pool.any_language_after - waited) + _answer(pool, 1))
        free = _speakers(pool.free_languages, language)
        if free == 0:  # the free agents all hold offers of older sessions: one answers (on average
            # half-way through its wave already), the others are offered this one as a wave
            wave = max(1, min(pool.offer_size, available - 1))
            return round(pool.answer_seconds / 2 + _answer(pool, wave))
        return _answer(pool, min(pool.offer_size, free or pool.offer_size))
    if pool.handle_seconds is None:
        return None
    return round(_wait_beyond(beyond, pool, available, blocking))


def _seats_for(pool: Pool, video: bool) -> tuple[int, tuple[float, ...] | None]:
    """(the available agents who may take this customer, the seconds into what must end for the
    next one to come free: None for one per busy agent, from serving_for)."""
    if video and pool.video_available is not None:
        return pool.video_available, pool.video_serving_for
    if not video and pool.seats_held is not None:
        return pool.available, pool.serving_for
    return pool.available, None


def likeliest_within(samples: tuple[float, ...]) -> int:
    """The whole number of seconds within 25 % of the most samples, at least 1 (ties: the one
    nearest their mean)."""
    mean = sum(samples) / len(samples)
    best, best_key = 1, (-1, 0.0)
    for candidate in range(1, math.ceil(max(samples) / (1 - TOLERANCE)) + 1):
        count = sum(abs(candidate - sample) <= TOLERANCE * sample for sample in samples)
        key = (count, -abs(candidate - mean))
        if key > best_key:
            best, best_key = candidate, key
    return best


def _answer(pool: Pool, wave: int) -> int:
    """The answer time to show for a wave of `wave` agents: likeliest within 25 % of the recent
    answers to waves of that size (of all recent answers with fewer than 5 of them)."""
    same = tuple(seconds for seconds, size in pool.answers if size == wave)
    if len(same) < 5:
        same = tuple(seconds for seconds, _ in pool.answers) or (pool.answer_seconds or 1.0,)
    return likeliest_within(same)


def _speakers(languages: tuple[frozenset[str], ...] | None, language: str) -> int | None:
    """How many of these agents may be offered a session in `language` (None: not known)."""
    if languages is None or not language:
        return None
    return sum(not spoken or language in spoken for spoken in languages)


def _log_normal(pool: Pool) -> tuple[float, float]:
    """(mu, sigma) of log handle time: fitted to the recent handle times, or around their mean."""
    logs = [math.log(seconds) for seconds in pool.handles if seconds > 0]
    if len(logs) >= 3:
        mu = sum(logs) / len(logs)
        sigma = math.sqrt(sum((value - mu) ** 2 for value in logs) / (len(logs) - 1))
        return mu, max(MIN_SIGMA, sigma)
    mean = pool.handle_seconds or 1.0
    return math.log(mean) - DEFAULT_SIGMA**2 / 2, DEFAULT_SIGMA


def _survival(seconds: float, mu: float, sigma: float) -> float:
    """P(handle time > seconds) for the log-normal (mu, sigma)."""
    if seconds <= 0:
        return 1.0
    return 0.5 * math.erfc((math.log(seconds) - mu) / (sigma * math.sqrt(2)))


def _wait_beyond(beyond: int, pool: Pool, available: int, blocking: tuple[float, ...] | None) -> float:
    """The seconds e most likely within 25 % of the wait for the `beyond`-th agent (or seat) to
    free up, then answer (beyond more than there are: after as many rounds of handle times).
    `blocking`: the seconds into each session that must end to free one (None: one per busy
    agent, the longest in session of serving_for)."""
    mu, sigma = _log_normal(pool)
    handle = pool.handle_seconds or 1.0
    answer = pool.answer_seconds or 0.0
    if blocking is None:
        busy = max(0, pool.signed_in - available)
        known = sorted(pool.serving_for, reverse=True)[:busy]
    else:
        busy, known = len(blocking), list(blocking)
    # Each agent as (elapsed in its session, delay before that session starts).
    agents = [(served, 0.0) for served in known] + [(0.0, 0.0)] * (busy - len(known))
    agents += [(0.0, answer)] * available
    # Deeper than the agents: each round of them serves one customer ahead first (a full handle
    # time and an answer each); the last round is as close as the one below.
    rounds = (beyond - 1) // max(1, len(agents))
    beyond -= rounds * len(agents)
    later = rounds * (handle + answer)
    agents.sort(key=lambda agent: _median_left(agent, mu, sigma))
    agents = agents[: max(beyond + MAX_AGENTS_CONSIDERED, 1)]

    def freed_by(t: float) -> float:
        """P(at least `beyond` of the agents are free t seconds from now)."""
        freed = [1.0] + [0.0] * beyond  # freed[k]: P(exactly k agents free); freed[beyond]: k or more
        for served, delay in agents:
            p = _freed_chance(served, t - delay, mu, sigma, handle)
            freed = (
                [freed[0] * (1 - p)]
                + [freed[k] * (1 - p) + freed[k - 1] * p for k in range(1, beyond)]
                + [freed[beyond] + freed[beyond - 1] * p]
            )
        return freed[beyond]

    # The wait is later + t + answer; e is judged against it: P(0.8 e <= wait <= 4/3 e).
    low, high = 1 / (1 + TOLERANCE), 1 / (1 - TOLERANCE)
    before = later + answer
    best, best_p = before + handle, -1.0
    candidate = max(1.0, before)
    while candidate <= before + 4 * handle:
        p = freed_by(high * candidate - before) - freed_by(low * candidate - before)
        if p > best_p:
            best, best_p = candidate, p
        candidate *= GRID_RATIO
    return best


def _freed_chance(served: float, t: float, mu: float, sigma: float, handle: float) -> float:
    """P(an agent `served` seconds into its session has ended it within the next t seconds)."""
    if t <= 0:
        return 0.0
    alive = _survival(served, mu, sigma)
    if alive < 1e-9:  # far past every handle time seen: it may end any moment
        return 1.0 - math.exp(-t / (handle / 10))
    return 1.0 - _survival(served + t, mu, sigma) / alive


def _median_left(agent: tuple[float, float], mu: float, sigma: float) -> float:
    """The median time until an agent frees (for choosing which agents matter)."""
    served, delay = agent
    alive = _survival(served, mu, sigma)
    target = alive / 2
    if target < 1e-12:
        return delay
    # log-normal quantile of survival `target`: exp(mu + sigma * z), z = Phi^-1(1 - target)
    z = _normal_quantile(1 - target)
    return max(0.0, math.exp(mu + sigma * z) - served) + delay


def _normal_quantile(p: float) -> float:
    """Inverse of the standard normal CDF by bisection on erfc (enough for ordering agents)."""
    low, high = -10.0, 10.0
    for _ in range(60):
        mid = (low + high) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2
