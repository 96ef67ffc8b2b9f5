"""`kgqa serve`: the gateway over HTTP (aiohttp).

Routes: the SPARQL proxy (`/sparql` for the default endpoint, `/endpoints/{name}/sparql`), the JSON
API (`POST /qa`, `POST /qa/batch` streaming NDJSON, `GET /endpoints`), the TEXT2SPARQL'25 API
(`GET /text2sparql`), the web page (`/`), and operations (`/health`, `/metrics`, `/openapi.json`).
Every response carries CORS headers (browser SPARQL clients such as YASGUI work); every request is
logged as one JSON line and counted in the metrics. Plain proxied GET queries are served by the
relay below aiohttp (`gateway/relay.py`, started by `start_server`), everything else by aiohttp.

Ad-hoc endpoint URLs are refused unless the server runs with `--allow-any-endpoint`; even then,
addresses inside the machine or its networks (loopback, private, link-local, cloud metadata) are
refused unless `--allow-internal-endpoints` is also given: the gateway is not an open proxy.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import ipaddress
import json
import logging
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import yaml
from aiohttp import web

from gateway.accesslog import ACCESS_LOG
from gateway.batch import run_batch
from gateway.config import EMBEDDED_URL, EndpointConfig, EndpointRegistry
from gateway.errors import ConfigurationError, GatewayError, UnknownEndpoint
from gateway.metrics import GatewayMetrics
from gateway.proxy import ResponseCache, SparqlProxy, error_status
from gateway.qa import PATH_FACTORIES, WHOLE_LIST_ANSWERS, AskOptions, Gateway
from gateway.relay import Relay, RelayProtocol
from gateway.sparql import is_local_address

log = logging.getLogger(__name__)

WEB_DIR = Path(__file__).resolve().parent / "web"
NO_QUERY = "SELECT ?answer WHERE { FILTER(false) }"
METADATA_HOSTS = frozenset({"metadata", "metadata.google.internal", "metadata.azure.com", "instance-data"})
METADATA_ADDRESSES = frozenset({ipaddress.ip_address("169.254.169.254"), ipaddress.ip_address("fd00:ec2::254"),
                                ipaddress.ip_address("100.100.100.200")})
MAX_BATCH_PAIRS = 10_000
MAX_TIMEOUT_S = 600.0

GATEWAY_KEY = web.AppKey("gateway", Gateway)
SETTINGS_KEY = web.AppKey("settings", object)
METRICS_KEY = web.AppKey("metrics", GatewayMetrics)
PROXY_KEY = web.AppKey("proxy", SparqlProxy)
POLICY_KEY = web.AppKey("policy", object)


@dataclass(frozen=True)
class ServerSettings:
    """How the server behaves; `datasets` maps TEXT2SPARQL dataset IRIs to endpoint names."""

    default_endpoint: str = "default"
    allow_any_endpoint: bool = False
    allow_internal_endpoints: bool = False
    cache_ttl_s: float = 300.0
    proxy_timeout_s: float | None = None
    datasets: dict[str, str] = field(default_factory=dict)
    text2sparql_timeout_s: float = 120.0


class EndpointRefused(GatewayError):
    kind = "endpoint-refused"


class BadRequest(GatewayError):
    kind = "bad-request"


def _is_internal(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return (address in METADATA_ADDRESSES or is_local_address(address)
            or address.is_multicast or address.is_unspecified or address.is_reserved)


class EndpointPolicy:
    """Which endpoints clients of the server may name: configured ones, and ad-hoc URLs only if allowed."""

    def __init__(self, registry: EndpointRegistry, settings: ServerSettings) -> None:
        self.registry = registry
        self.settings = settings

    async def resolve(self, name_or_url: str | None) -> EndpointConfig:
        key = (name_or_url or "").strip() or self.settings.default_endpoint
        if key in self.registry.names():
            return self.registry.resolve(key)
        configured = next((c for c in self.registry.all() if c.url == key), None)
        if configured is not None:
            return configured
        if key.startswith(EMBEDDED_URL):
            raise EndpointRefused("embedded stores cannot be named by clients of the server")
        parsed = urlparse(key)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise UnknownEndpoint(f"{key!r} is neither a configured endpoint ({', '.join(self.registry.names())}) "
                                  "nor an http(s) URL")
        if not self.settings.allow_any_endpoint:
            raise EndpointRefused("ad-hoc endpoint URLs are not allowed on this server (start it with "
                                  "--allow-any-endpoint); use a configured endpoint: " + ", ".join(self.registry.names()))
        if not self.settings.allow_internal_endpoints:
            await self._refuse_internal(parsed.hostname, parsed.port or (443 if parsed.scheme == "https" else 80))
        return self.registry.resolve(key)

    async def _refuse_internal(self, host: str, port: int) -> None:
        if host.lower().rstrip(".") in METADATA_HOSTS:
            raise EndpointRefused(f"{host} is a cloud metadata service; refused")
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as exc:
            raise EndpointRefused(f"cannot resolve {host}: {exc}") from exc
        for info in infos:
            address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
            if _is_internal(address):
                raise EndpointRefused(f"{host} resolves to the internal address {address}; the server refuses "
                                      "internal endpoints unless started with --allow-internal-endpoints")


def json_error(status: int, kind: str, message: str) -> web.Response:
    return web.json_response({"error": message, "error_kind": kind}, status=status)


def gateway_error_response(exc: GatewayError) -> web.Response:
    return json_error(error_status(exc), exc.kind, exc.message)


_OPTION_FIELDS = {f.name: f for f in fields(AskOptions) if f.name != "extra"}


def parse_options(raw: Any) -> AskOptions:
    """`AskOptions` from a JSON object, with a clear error for unknown keys and wrong types."""
    if raw is None:
        return AskOptions()
    if not isinstance(raw, dict):
        raise BadRequest("options must be a JSON object")
    unknown = set(raw) - set(_OPTION_FIELDS)
    if unknown:
        raise BadRequest(f"unknown option(s): {', '.join(sorted(unknown))}; known: {', '.join(_OPTION_FIELDS)}")
    defaults = AskOptions()
    values: dict[str, Any] = {}
    for name, value in raw.items():
        default = getattr(defaults, name)
        if name == "paths":
            if not isinstance(value, list) or not value or not all(v in PATH_FACTORIES for v in value):
                raise BadRequest(f"options.paths must be a non-empty list of {', '.join(PATH_FACTORIES)}")
            values[name] = tuple(value)
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise BadRequest(f"options.{name} must be true or false")
            values[name] = value
        elif isinstance(default, int | float):
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise BadRequest(f"options.{name} must be a positive number")
            values[name] = type(default)(value)
    if values.get("timeout_s", 0) > MAX_TIMEOUT_S:
        raise BadRequest(f"options.timeout_s must be at most {MAX_TIMEOUT_S:g}")
    return replace(defaults, **values)


async def read_json(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadRequest(f"the body is not valid JSON: {exc}") from exc
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return body


def _settings(request: web.Request) -> ServerSettings:
    settings = request.app[SETTINGS_KEY]
    assert isinstance(settings, ServerSettings)
    return settings


def _policy(request: web.Request) -> EndpointPolicy:
    policy = request.app[POLICY_KEY]
    assert isinstance(policy, EndpointPolicy)
    return policy


async def handle_qa(request: web.Request) -> web.Response:
    """POST /qa: one question, one endpoint, both answer paths side by side."""
    body = await read_json(request)
    question = body.get("question")
    if not isinstance(question, str):
        raise BadRequest("'question' (a string) is required")
    endpoint_name = body.get("endpoint")
    if endpoint_name is not None and not isinstance(endpoint_name, str):
        raise BadRequest("'endpoint' must be an endpoint name or URL")
    options = parse_options(body.get("options"))
    config = await _policy(request).resolve(endpoint_name)
    result = await request.app[GATEWAY_KEY].ask(question, config, options)
    metrics = request.app[METRICS_KEY]
    for name, path in result.paths.items():
        metrics.questions.inc(name, path.status.value)
    status = 400 if result.error_kind in ("bad-question", "bad-request") else 502 if result.error else 200
    return web.json_response(result.to_dict(), status=status, dumps=_dumps)


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False)


async def handle_batch(request: web.Request) -> web.StreamResponse:
    """POST /qa/batch: NDJSON, one line per (question, endpoint) as each finishes."""
    body = await read_json(request)
    questions = body.get("questions")
    if not isinstance(questions, list) or not questions or not all(isinstance(q, str) for q in questions):
        raise BadRequest("'questions' must be a non-empty list of strings")
    names = body.get("endpoints") or [None]
    if not isinstance(names, list) or not all(n is None or isinstance(n, str) for n in names):
        raise BadRequest("'endpoints' must be a list of endpoint names or URLs")
    if len(questions) * len(names) > MAX_BATCH_PAIRS:
        raise BadRequest(f"at most {MAX_BATCH_PAIRS} (question, endpoint) pairs per batch")
    concurrency = body.get("concurrency")
    if concurrency is not None and (not isinstance(concurrency, int) or isinstance(concurrency, bool)
                                    or not 1 <= concurrency <= 64):
        raise BadRequest("'concurrency' must be an integer from 1 to 64 (per endpoint)")
    item_timeout = body.get("item_timeout_s")
    if item_timeout is not None and (not isinstance(item_timeout, int | float) or not 0 < item_timeout <= MAX_TIMEOUT_S):
        raise BadRequest(f"'item_timeout_s' must be a number of seconds up to {MAX_TIMEOUT_S:g}")
    options = parse_options(body.get("options"))
    policy = _policy(request)
    endpoints = list({c.name: c for c in [await policy.resolve(n) for n in names]}.values())
    metrics = request.app[METRICS_KEY]
    response = web.StreamResponse(headers={"Content-Type": "application/x-ndjson; charset=utf-8"})
    await response.prepare(request)
    async for finished in run_batch(request.app[GATEWAY_KEY], questions, endpoints, options,
                                    concurrency=concurrency, item_timeout_s=item_timeout):
        metrics.batch_items.inc(finished.status)
        await response.write((_dumps(finished.to_dict()) + "\n").encode())
    await response.write_eof()
    return response


def _public_url(url: str) -> str:
    """The URL without user info, for listing endpoints."""
    parsed = urlparse(url)
    if parsed.username or parsed.password:
        return parsed._replace(netloc=parsed.hostname + (f":{parsed.port}" if parsed.port else "")).geturl()
    return url


async def handle_endpoints(request: web.Request) -> web.Response:
    settings = _settings(request)
    gateway = request.app[GATEWAY_KEY]
    listed = []
    for config in gateway.registry.all():
        listed.append({
            "name": config.name,
            "url": "embedded" if config.is_embedded else _public_url(config.url),
            "description": config.description,
            "default": config.name == settings.default_endpoint,
            "sparql": f"/endpoints/{config.name}/sparql",
        })
    return web.json_response({"default": settings.default_endpoint, "allow_any_endpoint": settings.allow_any_endpoint,
                              "endpoints": listed})


async def index_status(config: EndpointConfig) -> dict[str, Any]:
    """The HubLink index state of an endpoint (`state`: absent, building, ready, error; or unknown when
    HubLink cannot say), without server-internal details such as folders and process ids."""
    try:
        import hublink
    except ImportError as exc:
        return {"state": "unknown", "detail": f"hublink is not available: {exc}"}
    status_of = getattr(hublink, "index_status", None)
    if status_of is None:
        return {"state": "unknown", "detail": "hublink does not report index status"}
    status: Any = status_of(config)
    if inspect.isawaitable(status):
        status = await status
    state = status.to_dict() if hasattr(status, "to_dict") else dict(status or {})
    state.setdefault("state", "unknown")
    for internal in ("folder", "pid"):
        state.pop(internal, None)
    return state


async def handle_index_status(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    gateway = request.app[GATEWAY_KEY]
    if name not in gateway.registry.names():
        raise UnknownEndpoint(f"no configured endpoint {name!r}")
    return web.json_response({"endpoint": name, "index": await index_status(gateway.registry.resolve(name))})


def dataset_endpoint(dataset: str, settings: ServerSettings, registry: EndpointRegistry) -> str | None:
    """The endpoint name for a TEXT2SPARQL dataset IRI (or an endpoint name used as the dataset)."""
    for key in (dataset, dataset.rstrip("/"), dataset.rstrip("/") + "/"):
        if key in settings.datasets:
            return settings.datasets[key]
    return dataset if dataset in registry.names() else None


async def handle_text2sparql(request: web.Request) -> web.Response:
    """GET /text2sparql?question=...&dataset=... (TEXT2SPARQL'25): {dataset, question, query}."""
    question = request.query.get("question", "")
    dataset = request.query.get("dataset", "")
    if not question.strip() or not dataset.strip():
        return web.json_response({"detail": "both 'question' and 'dataset' are required"}, status=422)
    settings = _settings(request)
    gateway = request.app[GATEWAY_KEY]
    name = dataset_endpoint(dataset, settings, gateway.registry)
    if name is None:
        known = ", ".join(settings.datasets) or "none configured"
        return web.json_response({"detail": f"Unknown dataset {dataset!r}; known datasets: {known}"}, status=404)
    # The challenge runs the returned query and compares whole answer lists: no interactive cut of 100.
    options = AskOptions(paths=("kgqan",), timeout_s=settings.text2sparql_timeout_s, max_answers=WHOLE_LIST_ANSWERS)
    result = await gateway.ask(question, gateway.registry.resolve(name), options)
    kgqan = result.paths.get("kgqan")
    evidence = kgqan.evidence.to_dict() if kgqan is not None and kgqan.evidence is not None else {}
    query = evidence.get("sparql") or next((q.get("sparql") for q in evidence.get("queries") or [] if q.get("sparql")),
                                           None)
    out: dict[str, Any] = {"dataset": dataset, "question": question, "query": query or NO_QUERY, "endpoint": name}
    if not query:
        why = (result.error or (kgqan.error if kgqan is not None else None)
               or (kgqan.notes[0] if kgqan is not None and kgqan.notes else None) or "no query was generated")
        out["note"] = f"no SPARQL generated ({why}); the query returns nothing"
    if kgqan is not None:
        request.app[METRICS_KEY].questions.inc("kgqan", kgqan.status.value)
    return web.json_response(out, dumps=_dumps)


async def handle_sparql(request: web.Request) -> web.StreamResponse:
    gateway = request.app[GATEWAY_KEY]
    name = request.match_info.get("name") or _settings(request).default_endpoint
    if name not in gateway.registry.names() and "name" in request.match_info:
        return web.Response(status=404, text=f"unknown-endpoint: no configured endpoint {name!r}\n",
                            content_type="text/plain")
    return await request.app[PROXY_KEY].handle(request, gateway.endpoint(name))


async def handle_health(request: web.Request) -> web.Response:
    gateway = request.app[GATEWAY_KEY]
    return web.json_response({"status": "ok", "uptime_s": round(time.monotonic() - request.app[STARTED_KEY], 1),
                              "endpoints": gateway.registry.names(), "default": _settings(request).default_endpoint})


async def handle_metrics(request: web.Request) -> web.Response:
    return web.Response(text=request.app[METRICS_KEY].render(), content_type="text/plain",
                        headers={"X-Content-Type-Options": "nosniff"}, charset="utf-8")


async def handle_openapi(request: web.Request) -> web.FileResponse:
    return web.FileResponse(WEB_DIR / "openapi.json", headers={"Content-Type": "application/json"})


async def handle_index_page(request: web.Request) -> web.FileResponse:
    return web.FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


STARTED_KEY = web.AppKey("started", float)
CORS_HEADERS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "X-Cache, X-SPARQL-MaxRows, X-KGQA-Error, X-KGQA-Rewritten, X-KGQA-Note",
}


async def _add_cors(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(CORS_HEADERS)


def _route_name(request: web.Request) -> str:
    route = request.match_info.route
    resource = route.resource
    return resource.canonical if resource is not None else "unmatched"


@web.middleware
async def observe(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
    """CORS preflight, classified errors as clear responses, one JSON log line and metrics per request."""
    started = time.perf_counter()
    status = 500
    try:
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            response: web.StreamResponse = web.Response(status=204, headers={
                "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
                "Access-Control-Allow-Headers": request.headers.get("Access-Control-Request-Headers",
                                                                    "Content-Type, Accept"),
                "Access-Control-Max-Age": "86400",
            })
        else:
            try:
                response = await handler(request)
            except GatewayError as exc:
                response = gateway_error_response(exc)
        status = response.status
        return response
    except web.HTTPException as exc:
        status = exc.status
        raise
    except asyncio.CancelledError:
        status = 499
        raise
    except ConnectionResetError:
        status = 499
        raise
    except Exception:
        log.exception("unexpected error on %s %s", request.method, request.path)
        return json_error(500, "internal", "internal error; the server log has the details")
    finally:
        elapsed = time.perf_counter() - started
        route = _route_name(request)
        metrics = request.app[METRICS_KEY]
        metrics.requests.inc(route, request.method, str(status))
        metrics.latency.observe(elapsed, route)
        ACCESS_LOG.record(request.method, request.path, route, status, elapsed * 1000, request.remote or "")


class JsonLogFormatter(logging.Formatter):
    """One JSON object per log line: time, level, logger, message and any `fields` given."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {"ts": round(record.created, 3), "level": record.levelname.lower(),
                                 "logger": record.name, "msg": record.getMessage()}
        entry.update(getattr(record, "fields", {}))
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def _index_collector(app: web.Application) -> Callable[[], None]:
    def collect() -> None:
        hublink = sys.modules.get("hublink")
        status_of = getattr(hublink, "index_status", None) if hublink is not None else None
        if status_of is None or inspect.iscoroutinefunction(status_of):
            return
        counts: dict[str, int] = {}
        for config in app[GATEWAY_KEY].registry.all():
            try:
                status = status_of(config)
            except Exception:  # a scrape never fails because one endpoint's status does
                continue
            state = status.to_dict() if hasattr(status, "to_dict") else (status or {})
            name = str(state.get("state", "unknown"))
            counts[name] = counts.get(name, 0) + 1
        for name, count in counts.items():
            app[METRICS_KEY].index_builds.set(name, value=count)

    return collect


def create_app(gateway: Gateway, settings: ServerSettings | None = None) -> web.Application:
    """The aiohttp application; the caller owns `gateway` (closed on app cleanup)."""
    settings = settings or ServerSettings()
    if settings.default_endpoint not in gateway.registry.names():
        gateway.registry.add(replace(gateway.registry.resolve(settings.default_endpoint), name=settings.default_endpoint))
    metrics = GatewayMetrics()
    cache = ResponseCache(ttl_s=settings.cache_ttl_s)
    metrics.add_collector(lambda: metrics.cache_entries.set(value=len(cache)))
    app = web.Application(middlewares=[observe], client_max_size=8 * 1024 * 1024)
    app[GATEWAY_KEY] = gateway
    app[SETTINGS_KEY] = settings
    app[METRICS_KEY] = metrics
    app[PROXY_KEY] = SparqlProxy(gateway, metrics, cache=cache, timeout_s=settings.proxy_timeout_s)
    app[POLICY_KEY] = EndpointPolicy(gateway.registry, settings)
    app[STARTED_KEY] = time.monotonic()
    metrics.add_collector(_index_collector(app))
    app.on_response_prepare.append(_add_cors)

    async def close_gateway(_: web.Application) -> None:
        await gateway.close()

    app.on_cleanup.append(close_gateway)
    for path in ("/sparql", "/endpoints/{name}/sparql"):
        app.router.add_route("GET", path, handle_sparql)
        app.router.add_route("POST", path, handle_sparql)
    app.router.add_get("/", handle_index_page)
    app.router.add_static("/static/", WEB_DIR, append_version=False)
    app.router.add_post("/qa", handle_qa)
    app.router.add_post("/qa/batch", handle_batch)
    app.router.add_get("/endpoints", handle_endpoints)
    app.router.add_get("/endpoints/{name}/index", handle_index_status)
    app.router.add_get("/text2sparql", handle_text2sparql)
    app.router.add_get("/health", handle_health)
    app.router.add_get("/metrics", handle_metrics)
    app.router.add_get("/openapi.json", handle_openapi)
    return app


def load_datasets(path: Path | str | None) -> dict[str, str]:
    """The optional `datasets:` mapping (TEXT2SPARQL dataset IRI -> endpoint name) of an endpoints file."""
    from gateway.config import default_endpoints_path

    source = Path(path) if path else default_endpoints_path()
    if not source.exists():
        return {}
    data = yaml.safe_load(source.read_text(encoding="utf-8")) or {}
    datasets = data.get("datasets", {}) if isinstance(data, dict) else {}
    if not isinstance(datasets, dict):
        raise ConfigurationError(f"{source}: 'datasets' must map dataset IRIs to endpoint names")
    return {str(k): str(v) for k, v in datasets.items()}


def settings_from_args(args: argparse.Namespace, registry: EndpointRegistry) -> ServerSettings:
    datasets = load_datasets(getattr(args, "endpoints_file", None))
    for entry in getattr(args, "dataset", None) or []:
        iri, sep, name = entry.rpartition("=")
        if not sep or not iri or not name:
            raise ConfigurationError(f"--dataset {entry!r}: write IRI=ENDPOINT")
        datasets[iri] = name
    for iri, name in datasets.items():
        if name not in registry.names():
            raise ConfigurationError(f"dataset {iri} maps to {name!r}, which is not a configured endpoint")
    default = args.endpoint or "default"
    registry.resolve(default)
    return ServerSettings(default_endpoint=default, allow_any_endpoint=args.allow_any_endpoint,
                          allow_internal_endpoints=getattr(args, "allow_internal_endpoints", False),
                          cache_ttl_s=args.cache_ttl, datasets=datasets)


def setup_access_log(stream: Any = None) -> None:
    """JSON lines on stderr (or `stream`) for every log record of the server; request lines come
    from `gateway.accesslog`, in the same shape and on the same stream."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonLogFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    ACCESS_LOG.start(stream or sys.stderr)


class RunningServer:
    """`create_app` listening on a port: the relay (`gateway/relay.py`) in front of aiohttp's handler."""

    def __init__(self, runner: web.AppRunner, server: asyncio.Server, relay: Relay | None) -> None:
        self.runner = runner
        self.server = server
        self.relay = relay

    async def close(self) -> None:
        self.server.close()
        if self.relay is not None:
            self.relay.count_served()  # requests answered just before: their metrics and log lines
            for connection in list(self.relay.connections):
                connection.close()
        await self.runner.cleanup()


async def start_server(app: web.Application, host: str, port: int, *, relay: bool = True) -> RunningServer:
    """Serves `app` on host:port; with `relay`, plain proxied GET queries are relayed below aiohttp."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    handler_factory = runner.server
    assert handler_factory is not None
    loop = asyncio.get_running_loop()
    if relay:
        relaying = Relay(app[PROXY_KEY], app[SETTINGS_KEY].default_endpoint, CORS_HEADERS, handler_factory)
        server = await loop.create_server(lambda: RelayProtocol(relaying), host, port, reuse_address=True, backlog=512)
        return RunningServer(runner, server, relaying)
    server = await loop.create_server(handler_factory, host, port, reuse_address=True, backlog=512)
    return RunningServer(runner, server, None)


async def serve_until_stopped(app: web.Application, host: str, port: int, *, relay: bool = True) -> None:
    """Serves until SIGINT or SIGTERM, then closes connections and the app (and with it the gateway)."""
    running = await start_server(app, host, port, relay=relay)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await running.close()
        ACCESS_LOG.flush()


def main(args: argparse.Namespace) -> int:
    """`kgqa serve`: runs until interrupted."""
    from gateway.cli import registry_from_args

    registry = registry_from_args(args)
    settings = settings_from_args(args, registry)
    setup_access_log()
    gateway = Gateway(registry)
    app = create_app(gateway, settings)
    loop = new_event_loop(getattr(args, "loop", "auto"))
    log.warning("kgqa serving on http://%s:%d (default endpoint %s, %s loop)", args.host, args.port,
                settings.default_endpoint, type(loop).__module__.split(".")[0])
    try:
        loop.run_until_complete(serve_until_stopped(app, args.host, args.port, relay=not getattr(args, "no_relay", False)))
    finally:
        loop.close()
    return 0


def new_event_loop(kind: str = "auto") -> asyncio.AbstractEventLoop:
    """uvloop when asked for or (with `auto`) when installed; the standard loop otherwise."""
    if kind != "asyncio":
        try:
            import uvloop
        except ImportError:
            if kind == "uvloop":
                raise SystemExit("--loop uvloop: uvloop is not installed (pip install uvloop)") from None
        else:
            return uvloop.new_event_loop()
    return asyncio.new_event_loop()

