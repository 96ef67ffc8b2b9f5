"""Proxy overhead: `kgqa serve`'s SPARQL proxy against calling Virtuoso directly.

Starts Virtuoso with ck25 and `kgqa serve` (a separate process, cache off) on 127.0.0.1, then runs
`wrk` (apt) against both with the same small SELECT at 1 and 32 concurrent connections. Each
configuration runs `--rounds` times, interleaved; the figures are medians over rounds: throughput ratio
(proxy / direct) and the latency the proxy adds at p50 and p99. The ratio is also given per round
(each proxy run against the better direct run of the same round) with the median of those, which
is steadier when the host's load drifts between rounds. Everything runs on this machine,
so wrk, the proxy and Virtuoso share its cores. Virtuoso is called directly in two ways, and the faster
at each concurrency is the baseline: with `Accept-Encoding: gzip` (Virtuoso then closes the connection
after each answer) and with kept, uncompressed connections (`Connection: keep-alive`, what the proxy
itself asks for). CPU time per request of Virtuoso and of the proxy (from /proc) is reported too.

The proxy has at most the endpoint's `max_concurrency` requests in flight upstream (`--max-concurrency`;
by default the gateway's default, 8), however many clients it serves; Virtuoso on this machine answers
more requests per second over a few connections than over 32.

`kgqa serve` relays plain GET queries below aiohttp (`gateway/relay.py`); with `--no-relay`, the same
server without the relay (every request through aiohttp) is measured too.

    .venv/bin/python benchmarks/proxy.py [--seconds 10] [--rounds 3] [--max-concurrency N] [--cached]
        [--compare-loops] [--no-relay]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway.engines import VirtuosoEngine, free_port  # noqa: E402

CK25 = ROOT.parent / "shared" / "data" / "kgs" / "ck25" / "graph.ttl"
QUERY = "SELECT ?s ?l WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l } LIMIT 10"
UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0}


@dataclass
class WrkRun:
    requests_per_s: float
    p50_ms: float
    p99_ms: float
    errors: int
    cpu_ms: dict[str, float] | None = None  # CPU time per request, by process (virtuoso, proxy)


def parse_wrk(output: str) -> WrkRun:
    def latency(percent: str) -> float:
        match = re.search(rf"^\s*{percent}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        if match is None:
            raise RuntimeError(f"no {percent}% latency in wrk output:\n{output}")
        return float(match.group(1)) * UNITS[match.group(2)]

    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    errors = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    failed = int(errors.group(1)) if errors else 0
    if socket:
        failed += sum(int(g) for g in socket.groups())
    if rate is None:
        raise RuntimeError(f"no Requests/sec in wrk output:\n{output}")
    return WrkRun(float(rate.group(1)), latency("50"), latency("99"), failed)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


GZIP = ("Accept-Encoding: gzip",)
KEPT_IDENTITY = ("Accept-Encoding: identity", "Connection: keep-alive")  # what the proxy asks Virtuoso for


def wrk(url: str, connections: int, seconds: int, headers: tuple[str, ...] = GZIP) -> WrkRun:
    threads = 1 if connections == 1 else 2
    extra = [arg for header in headers for arg in ("-H", header)]
    result = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
                             "-H", "Accept: application/sparql-results+json", *extra, url],
                            capture_output=True, text=True, timeout=seconds + 60, check=True)
    return parse_wrk(result.stdout)


def proxy_own_time_ms(metrics: str) -> float:
    """Mean time the proxy spends per uncached request outside the upstream call, from its /metrics."""

    def total(name: str, label: str) -> tuple[float, float]:
        sums = re.search(rf'^{name}_sum{{{label}}} ([\d.e+-]+)$', metrics, re.M)
        counts = re.search(rf'^{name}_count{{{label}}} ([\d.e+-]+)$', metrics, re.M)
        if sums is None or counts is None:
            raise RuntimeError(f"{name} missing from /metrics")
        return float(sums.group(1)), float(counts.group(1))

    server_s, server_n = total("kgqa_http_request_duration_seconds", 'route="/sparql"')
    upstream_s, upstream_n = total("kgqa_upstream_duration_seconds", 'endpoint="ck25"')
    return (server_s / server_n - upstream_s / upstream_n) * 1000


def wait_for(url: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=int, default=10, help="length of one wrk run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per configuration (medians are reported)")
    parser.add_argument("--cached", action="store_true", help="also measure with the proxy's response cache on")
    parser.add_argument("--compare-loops", action="store_true",
                        help="also measure the proxy on the standard asyncio loop (the default is uvloop)")
    parser.add_argument("--no-relay", action="store_true",
                        help="also measure the server without its relay (kgqa serve --no-relay)")
    parser.add_argument("--max-concurrency", type=int, default=None, metavar="N",
                        help="the proxied endpoint's max_concurrency, requests the proxy has in flight upstream "
                             "(default: the gateway's default for any endpoint, 8; runs before 2026-11-23 used 32)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here as JSON")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: scripts/install-system.sh (apt-get install wrk)")
    virtuoso = VirtuosoEngine()
    virtuoso.start()
    servers: list[subprocess.Popen[bytes]] = []
    workdir = Path(tempfile.mkdtemp(prefix="kgqa-bench-"))
    try:
        virtuoso.load(CK25, "ck25")
        config = virtuoso.endpoint("ck25", "ck25")
        endpoints = workdir / "endpoints.yaml"
        limit = f"    max_concurrency: {args.max_concurrency}\n" if args.max_concurrency else ""
        endpoints.write_text(f"endpoints:\n  ck25:\n    url: {config.url}\n    default_graph: {config.default_graph}\n{limit}")
        print(f"proxied endpoint's max_concurrency: {args.max_concurrency or 'the default'}")
        direct = config.url + "?" + urllib.parse.urlencode({"query": QUERY, "default-graph-uri": config.default_graph})

        pids: dict[str, int] = {"virtuoso": virtuoso.process.pid}

        def measured(name: str, url: str, connections: int) -> WrkRun:
            watched = {"virtuoso": pids["virtuoso"], **({"proxy": pids[name]} if name in pids else {})}
            before = {k: cpu_seconds(pid) for k, pid in watched.items()}
            run = wrk(url, connections, args.seconds, KEPT_IDENTITY if name == "direct-kept" else GZIP)
            requests = max(1.0, run.requests_per_s * args.seconds)
            run.cpu_ms = {k: (cpu_seconds(pid) - before[k]) * 1000 / requests for k, pid in watched.items()}
            return run

        def serve(cache_ttl: float, loop: str = "auto", *extra: str) -> str:
            port = free_port()
            servers.append(subprocess.Popen(
                [sys.executable, "-m", "gateway.cli", "serve", "--port", str(port), "--endpoints-file", str(endpoints),
                 "--endpoint", "ck25", "--cache-ttl", str(cache_ttl), "--loop", loop, *extra],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ}))
            wait_for(f"http://127.0.0.1:{port}/health")
            return f"http://127.0.0.1:{port}/sparql?" + urllib.parse.urlencode({"query": QUERY})

        targets = {"direct": direct, "direct-kept": direct, "proxy": serve(0)}
        pids["proxy"] = servers[-1].pid
        if args.compare_loops:
            targets["proxy-asyncio"] = serve(0, "asyncio")
            pids["proxy-asyncio"] = servers[-1].pid
        if args.no_relay:
            targets["no-relay"] = serve(0, "auto", "--no-relay")
            pids["no-relay"] = servers[-1].pid
        if args.cached:
            targets["proxy-cached"] = serve(300)
            pids["proxy-cached"] = servers[-1].pid
        for url in targets.values():
            with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/sparql-results+json"})) as r:
                assert len(json.loads(r.read())["results"]["bindings"]) == 10
        figures: dict[str, dict[str, float]] = {}
        for connections in (1, 32):
            runs: dict[str, list[WrkRun]] = {name: [] for name in targets}
            for _ in range(args.rounds):
                for name, url in targets.items():  # interleaved, so drift hits both alike
                    runs[name].append(measured(name, url, connections))
            med = {name: WrkRun(statistics.median(r.requests_per_s for r in rs), statistics.median(r.p50_ms for r in rs),
                                statistics.median(r.p99_ms for r in rs), sum(r.errors for r in rs),
                                {k: statistics.median(r.cpu_ms[k] for r in rs) for k in rs[0].cpu_ms or {}})
                   for name, rs in runs.items()}
            for name, run in med.items():
                figures[f"{name}@{connections}"] = run.__dict__
                cpu = "  ".join(f"{k} {v:.2f}" for k, v in (run.cpu_ms or {}).items())
                print(f"{connections:>2} clients {name:>12}: {run.requests_per_s:8.0f} req/s  p50 {run.p50_ms:6.2f} ms  "
                      f"p99 {run.p99_ms:6.2f} ms  errors {run.errors}  CPU ms/request: {cpu}")
            # the baseline is Virtuoso at its best at this concurrency: gzip (a new connection per answer)
            # or kept, uncompressed connections (what the proxy itself uses)
            best = max(("direct", "direct-kept"), key=lambda n: med[n].requests_per_s)
            figures[f"baseline@{connections}"] = {"direct": best}
            print(f"{connections:>2} clients baseline: {best}")
            for name in targets:
                if name.startswith("direct"):
                    continue
                ratio = med[name].requests_per_s / med[best].requests_per_s
                added50 = med[name].p50_ms - med[best].p50_ms
                added99 = med[name].p99_ms - med[best].p99_ms
                # per round, against the better direct run of the same round (the host's load drifts
                # between rounds; within one round the runs are seconds apart)
                per_round = sorted(run.requests_per_s / max(runs["direct"][i].requests_per_s,
                                                            runs["direct-kept"][i].requests_per_s)
                                   for i, run in enumerate(runs[name]))
                figures[f"{name}@{connections}"].update(throughput_ratio=ratio, added_p50_ms=added50, added_p99_ms=added99,
                                                        round_ratios=per_round,
                                                        round_ratio_median=statistics.median(per_round))
                print(f"{connections:>2} clients {name:>12}: throughput ratio {ratio:.2f} (per round: median "
                      f"{statistics.median(per_round):.2f}, {' '.join(f'{r:.2f}' for r in per_round)}), "
                      f"added p50 {added50:+.2f} ms, added p99 {added99:+.2f} ms")
        proxy_url = targets["proxy"].split("/sparql?")[0]
        with urllib.request.urlopen(proxy_url + "/metrics") as response:
            own = proxy_own_time_ms(response.read().decode())
        figures["proxy_own_time_ms"] = {"mean": own}
        print(f"proxy's own time per request (server-side total minus time to upstream headers, mean): {own:.2f} ms")
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2))
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)
        virtuoso.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
