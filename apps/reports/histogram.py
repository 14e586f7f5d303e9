"""Fixed-bucket histograms of answer and handle seconds, as the rollup stores them: a count per
bucket, additive across rows, so a range's percentiles come from summed counts (linear within a
bucket; the open last bucket answers its lower edge). Exact to within the bucket's width."""

# Lower edges in seconds; bucket i holds [EDGES[i], EDGES[i + 1]), the last one is open.
ANSWER_EDGES = (0, 2, 4, 6, 8, 10, 12, 15, 18, 21, 24, 27, 30, 35, 40, 45, 50, 60, 75, 90, 105, 120, 150, 180,
                240, 300, 420, 600, 900, 1200, 1800, 3600)  # fmt: skip
HANDLE_EDGES = (0, 15, 30, 45, 60, 90, 120, 150, 180, 210, 240, 300, 360, 420, 480, 540, 600, 720, 840, 960,
                1200, 1500, 1800, 2400, 3000, 3600, 5400, 7200, 10800, 14400, 21600, 43200)  # fmt: skip
BUCKETS = len(ANSWER_EDGES)
assert len(HANDLE_EDGES) == BUCKETS


def columns(prefix: str) -> list[str]:
    return [f"{prefix}_h{index:02d}" for index in range(BUCKETS)]


def percentile(counts: list[int], edges: tuple[int, ...], fraction: float) -> float | None:
    """The continuous percentile of the values the counts stand for (None when there are none)."""
    total = sum(counts)
    if not total:
        return None
    rank = fraction * (total - 1)  # 0-based, as percentile_cont ranks
    below = 0
    for index, count in enumerate(counts):
        if count and rank < below + count:
            if index + 1 == len(edges):
                return float(edges[index])
            low, high = edges[index], edges[index + 1]
            return low + (high - low) * (rank - below + 0.5) / count
        below += count
    return float(edges[-1])
