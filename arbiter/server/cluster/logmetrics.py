"""What the cluster's log counts for /metrics: commits, their latency as histogram buckets,
refusals and failures (docs/cluster.md, "What an operator sees"). Pure counters: the log
(:class:`~.pglog.ClusterLog`) updates them, :func:`arbiter.server.net.metrics.render` prints
them."""

from __future__ import annotations

from dataclasses import dataclass

# Upper bounds (seconds) of the commit latency histogram's buckets, for /metrics.
LATENCY_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)


@dataclass
class LogMetrics:
    commits: int = 0
    rows_written: int = 0
    commit_seconds: float = 0.0
    commit_seconds_max: float = 0.0
    fenced_batches: int = 0
    answered_inline: int = 0  # batches whose answer came within the inline wait
    failures: int = 0  # calls that raised LogUnavailable
    claims: int = 0
    claims_lost: int = 0

    def __post_init__(self) -> None:
        self.latency_counts = [0] * len(LATENCY_BUCKETS)

    def observe_commit(self, seconds: float, rows: int) -> None:
        self.commits += 1
        self.rows_written += rows
        self.commit_seconds += seconds
        self.commit_seconds_max = max(self.commit_seconds_max, seconds)
        for i, bound in enumerate(LATENCY_BUCKETS):
            if seconds <= bound:
                self.latency_counts[i] += 1

    def samples(self) -> list[tuple[str, str, str, list[tuple[dict[str, str], float]]]]:
        """Metric families in the shape :func:`arbiter.server.net.metrics.render` takes."""
        by_latency: list[tuple[dict[str, str], float]] = [
            ({"le": repr(b)}, n) for b, n in zip(LATENCY_BUCKETS, self.latency_counts,
                                                  strict=True)]
        by_latency.append(({"le": "+Inf"}, self.commits))
        return [
            ("arbiter_pg_commits_total", "counter", "Log batches committed to PostgreSQL.",
             [({}, self.commits)]),
            ("arbiter_pg_rows_total", "counter", "Log records written to PostgreSQL.",
             [({}, self.rows_written)]),
            ("arbiter_pg_commits_by_latency_total", "counter",
             "Commits that took at most le seconds (cumulative, as histogram buckets).",
             by_latency),
            ("arbiter_pg_commit_seconds_total", "counter", "Time spent committing the log.",
             [({}, round(self.commit_seconds, 6))]),
            ("arbiter_pg_commit_seconds_max", "gauge", "The slowest commit so far.",
             [({}, round(self.commit_seconds_max, 6))]),
            ("arbiter_pg_commits_answered_inline_total", "counter",
             "Batches whose answer came while the node waited for it without giving the "
             "event loop a turn (see docs/cluster.md).", [({}, self.answered_inline)]),
            ("arbiter_pg_fenced_batches_total", "counter",
             "Batches refused because a room had been claimed by another node.",
             [({}, self.fenced_batches)]),
            ("arbiter_pg_failures_total", "counter",
             "Log calls that failed because PostgreSQL was unreachable or too slow.",
             [({}, self.failures)]),
            ("arbiter_pg_claims_total", "counter", "Rooms claimed (epoch raised) in the log.",
             [({}, self.claims)]),
            ("arbiter_pg_claims_lost_total", "counter",
             "Claims that found the room at another epoch (another node was first).",
             [({}, self.claims_lost)]),
        ]
