"""Prometheus text-format metrics without a client library: counters, gauges and histograms.

The server records requests, latencies, upstream errors, cache hits and index builds here; `/metrics`
renders them in the Prometheus exposition format (text 0.0.4).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

LATENCY_BUCKETS_S = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(names: Sequence[str], values: Sequence[str], extra: str = "") -> str:
    pairs = [f'{n}="{_escape(v)}"' for n, v in zip(names, values, strict=True)]
    if extra:
        pairs.append(extra)
    return "{" + ",".join(pairs) + "}" if pairs else ""


@dataclass
class Counter:
    name: str
    help: str
    label_names: tuple[str, ...] = ()
    kind: str = "counter"
    values: dict[tuple[str, ...], float] = field(default_factory=dict)

    def inc(self, *labels: str, amount: float = 1.0) -> None:
        self.values[labels] = self.values.get(labels, 0.0) + amount

    def set(self, *labels: str, value: float) -> None:
        self.values[labels] = value

    def get(self, *labels: str) -> float:
        return self.values.get(labels, 0.0)

    def render(self) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} {self.kind}"
        for labels, value in sorted(self.values.items()):
            yield f"{self.name}{_labels(self.label_names, labels)} {value:g}"


@dataclass
class Histogram:
    name: str
    help: str
    label_names: tuple[str, ...] = ()
    buckets: tuple[float, ...] = LATENCY_BUCKETS_S
    series: dict[tuple[str, ...], list[float]] = field(default_factory=dict)  # bucket counts, then sum, count

    def observe(self, value: float, *labels: str) -> None:
        counts = self.series.get(labels)
        if counts is None:
            counts = self.series[labels] = [0.0] * (len(self.buckets) + 2)
        index = bisect.bisect_left(self.buckets, value)
        if index < len(self.buckets):
            counts[index] += 1
        counts[-2] += value
        counts[-1] += 1

    def count(self, *labels: str) -> float:
        counts = self.series.get(labels)
        return counts[-1] if counts else 0.0

    def render(self) -> Iterable[str]:
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} histogram"
        for labels, counts in sorted(self.series.items()):
            running = 0.0
            for bound, count in zip(self.buckets, counts, strict=False):
                running += count
                bucket = _labels(self.label_names, labels, f'le="{bound:g}"')
                yield f"{self.name}_bucket{bucket} {running:g}"
            bucket = _labels(self.label_names, labels, 'le="+Inf"')
            yield f"{self.name}_bucket{bucket} {counts[-1]:g}"
            yield f"{self.name}_sum{_labels(self.label_names, labels)} {counts[-2]:.6f}"
            yield f"{self.name}_count{_labels(self.label_names, labels)} {counts[-1]:g}"


class GatewayMetrics:
    """Every metric the server exports, in one place."""

    def __init__(self) -> None:
        self.requests = Counter("kgqa_http_requests_total", "HTTP requests by route, method and status",
                                ("route", "method", "status"))
        self.latency = Histogram("kgqa_http_request_duration_seconds", "HTTP request latency by route", ("route",))
        self.upstream_errors = Counter("kgqa_upstream_errors_total", "Failed upstream SPARQL requests by kind",
                                       ("endpoint", "kind"))
        self.upstream_latency = Histogram("kgqa_upstream_duration_seconds",
                                          "Time to the upstream's response headers, proxied queries", ("endpoint",))
        self.cache = Counter("kgqa_proxy_cache_total", "Proxy response cache lookups by result", ("result",))
        self.relay = Counter("kgqa_proxy_relay_total",
                             "Proxy requests taken by the relay below aiohttp, by outcome (relayed, cached, "
                             "error, resent: passed to the aiohttp handler after the upstream's answer)", ("outcome",))
        self.cache_entries = Counter("kgqa_proxy_cache_entries", "Entries in the proxy response cache", kind="gauge")
        self.questions = Counter("kgqa_questions_total", "Answered questions by answer path and status",
                                 ("path", "status"))
        self.batch_items = Counter("kgqa_batch_items_total", "Batch items reported, by status", ("status",))
        self.index_builds = Counter("kgqa_index_builds", "Configured endpoints by HubLink index state",
                                    ("state",), kind="gauge")
        self._collectors: list[Callable[[], None]] = []

    def add_collector(self, collect: Callable[[], None]) -> None:
        """A function run before each scrape, to refresh gauges read from elsewhere."""
        self._collectors.append(collect)

    def render(self) -> str:
        for collect in self._collectors:
            collect()
        lines: list[str] = []
        for metric in (self.requests, self.latency, self.upstream_errors, self.upstream_latency, self.cache,
                       self.relay, self.cache_entries, self.questions, self.batch_items, self.index_builds):
            lines.extend(metric.render())
        return "\n".join(lines) + "\n"
