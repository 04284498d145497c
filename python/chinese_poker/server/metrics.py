"""The service's Prometheus metrics, in a registry of its own (one per app): requests, their
latency, errors and hands solved."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST
# from 100 µs (a single hand) to 30 s (a long Monte Carlo request)
_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
            1.0, 2.5, 5.0, 10.0, 30.0)  # fmt: skip


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter(
            "chinese_poker_requests",
            "requests answered, by route and status",
            ["route", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "chinese_poker_request_seconds",
            "time to answer a request, by route",
            ["route"],
            buckets=_BUCKETS,
            registry=self.registry,
        )
        self.errors = Counter(
            "chinese_poker_errors",
            "error answers, by route and error code",
            ["route", "code"],
            registry=self.registry,
        )
        self.hands = Counter(
            "chinese_poker_hands_solved",
            "hands solved, by objective",
            ["objective"],
            registry=self.registry,
        )

    def observe(self, route: str, status: int, seconds: float, code: str | None) -> None:
        self.requests.labels(route, str(status)).inc()
        self.latency.labels(route).observe(seconds)
        if code is not None:
            self.errors.labels(route, code).inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)
