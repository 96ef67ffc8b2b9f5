"""The JSON API, TEXT2SPARQL API and operations endpoints of the live server, validated against
its own OpenAPI description; answer paths run real SPARQL on live Virtuoso and Oxigraph."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from serverutil import LabelSearchPath, ServerThread

from gateway.config import EndpointConfig, EndpointRegistry
from gateway.engines import OxigraphEngine, VirtuosoEngine, free_port
from gateway.server import WEB_DIR, ServerSettings

CORPORATE = "https://text2sparql.aksw.org/2025/corporate/"
OPENAPI = json.loads((WEB_DIR / "openapi.json").read_text())


def schema(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}", "components": OPENAPI["components"]}


def validate(instance: Any, name: str) -> None:
    jsonschema.validate(instance, schema(name))


def request(url: str, payload: Any = None, *, method: str | None = None) -> tuple[int, dict[str, str], bytes]:
    data = json.dumps(payload).encode() if payload is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=60) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read()


def registry_for(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine) -> EndpointRegistry:
    return EndpointRegistry({
        "default": virtuoso.endpoint("default", "ck25"),
        "ck25": virtuoso.endpoint("ck25", "ck25"),
        "orkg": oxigraph.endpoint("orkg", "orkg"),
        "concert": oxigraph.endpoint("concert", "concert_singer"),
        "down": EndpointConfig(name="down", url=f"http://127.0.0.1:{free_port()}/sparql", timeout_s=3),
    })


@pytest.fixture(scope="module")
def server(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine) -> Iterator[ServerThread]:
    settings = ServerSettings(datasets={CORPORATE: "ck25"})
    paths = {"kgqan": LabelSearchPath(), "hublink": LabelSearchPath()}
    thread = ServerThread(registry_for(virtuoso, oxigraph), settings, paths=paths).start()
    yield thread
    thread.stop()


def test_qa_returns_both_paths_with_evidence_and_timings(server: ServerThread) -> None:
    status, _, body = request(f"{server.url}/qa", {"question": "Which products are there?", "endpoint": "ck25"})
    assert status == 200, body
    result = json.loads(body)
    validate(result, "QAResult")
    assert result["endpoint"] == "ck25"
    for path in ("kgqan", "hublink"):
        assert result[path]["status"] == "ok" and result[path]["answers"], result[path]
        assert result[path]["evidence"]["sparql"].startswith("SELECT")
        assert result[path]["timings_ms"]["total"] > 0 and result[path]["sparql_requests"] == 1
    assert result["timings_ms"]["total"] > 0


def test_qa_on_a_down_endpoint_reports_errors_per_path(server: ServerThread) -> None:
    status, _, body = request(f"{server.url}/qa", {"question": "Which products?", "endpoint": "down",
                                                   "options": {"paths": ["kgqan"]}})
    assert status == 200
    result = json.loads(body)
    validate(result, "QAResult")
    assert result["kgqan"]["status"] == "error" and result["kgqan"]["error_kind"] == "unreachable"
    assert "hublink" not in result


@pytest.mark.parametrize(("payload", "status", "kind"), [
    ({"endpoint": "ck25"}, 400, "bad-request"),
    ({"question": "q", "endpoint": "nowhere"}, 404, "unknown-endpoint"),
    ({"question": "q", "options": {"colour": "red"}}, 400, "bad-request"),
    ({"question": "q", "options": {"timeout_s": -1}}, 400, "bad-request"),
    ({"question": "q", "options": {"paths": ["oracle"]}}, 400, "bad-request"),
    ({"question": "   "}, 400, "bad-question"),
    ({"question": "q", "endpoint": "http://203.0.113.9/sparql"}, 403, "endpoint-refused"),
    ({"question": "q", "endpoint": "embedded:/etc/passwd"}, 403, "endpoint-refused"),
])
def test_bad_requests_get_clear_errors(server: ServerThread, payload: dict[str, Any], status: int, kind: str) -> None:
    got, _, body = request(f"{server.url}/qa", payload)
    assert got == status, body
    data = json.loads(body)
    validate(data, "Error")
    assert data["error_kind"] == kind


def test_malformed_json_body_is_400(server: ServerThread) -> None:
    req = urllib.request.Request(f"{server.url}/qa", data=b"{not json", headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(req, timeout=10)
    assert caught.value.code == 400


def read_batch(url: str, payload: dict[str, Any]) -> list[dict[str, Any]]:
    status, headers, body = request(f"{url}/qa/batch", payload)
    assert status == 200, body
    assert headers["Content-Type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in body.decode().splitlines()]
    for line in lines:
        validate(line, "BatchLine")
    return lines


def test_batch_reports_every_pair_once_with_one_endpoint_down(server: ServerThread) -> None:
    questions = [f"Which {word} are there?" for word in ("product", "paper", "singer", "concert", "stadium",
                                                          "country", "software", "architecture", "manager", "year")]
    lines = read_batch(server.url, {"questions": questions, "endpoints": ["ck25", "down", "orkg", "concert"],
                                    "options": {"paths": ["kgqan"]}, "concurrency": 3})
    assert len(lines) == 40
    assert sorted(line["index"] for line in lines) == list(range(40))
    by_endpoint: dict[str, list[dict[str, Any]]] = {}
    for line in lines:
        by_endpoint.setdefault(line["endpoint"], []).append(line)
    assert {name: len(items) for name, items in by_endpoint.items()} == {"ck25": 10, "down": 10, "orkg": 10,
                                                                        "concert": 10}
    assert all(line["status"] == "error" and "unreachable" in line["error"] for line in by_endpoint["down"])
    for name in ("ck25", "orkg", "concert"):
        assert all(line["status"] == "ok" for line in by_endpoint[name])
    assert {(line["question_index"], line["endpoint"]) for line in lines} == {
        (q, e) for q in range(10) for e in ("ck25", "down", "orkg", "concert")}


def test_batch_validation(server: ServerThread) -> None:
    for payload in ({"questions": []}, {"questions": ["q"], "endpoints": "ck25"}, {"questions": ["q"], "concurrency": 0}):
        status, _, body = request(f"{server.url}/qa/batch", payload)
        assert status == 400, payload
        validate(json.loads(body), "Error")
    status, _, body = request(f"{server.url}/qa/batch", {"questions": ["q"], "endpoints": ["http://10.0.0.1/sparql"]})
    assert status == 403


def test_ad_hoc_urls_need_both_switches_for_internal_addresses(virtuoso: VirtuosoEngine,
                                                               oxigraph: OxigraphEngine) -> None:
    url = virtuoso.sparql_url.replace("127.0.0.1", "localhost")  # not a configured endpoint's URL
    paths = {"kgqan": LabelSearchPath()}
    registry = registry_for(virtuoso, oxigraph)
    some = ServerThread(registry, ServerSettings(allow_any_endpoint=True), paths=paths).start()
    everything = ServerThread(registry, ServerSettings(allow_any_endpoint=True, allow_internal_endpoints=True),
                              paths=paths).start()
    try:
        payload = {"question": "Which products?", "endpoint": url, "options": {"paths": ["kgqan"]}}
        status, _, body = request(f"{some.url}/qa", payload)
        assert status == 403 and b"internal address" in body
        for metadata in ("http://169.254.169.254/latest/meta-data/", "http://metadata.google.internal/x",
                         "http://[::ffff:127.0.0.1]:8890/sparql"):
            status, _, _ = request(f"{some.url}/qa", {**payload, "endpoint": metadata})
            assert status == 403, metadata
        status, _, body = request(f"{everything.url}/qa", payload)
        assert status == 200, body
        assert json.loads(body)["kgqan"]["status"] == "ok"  # the default graph is the whole store here
    finally:
        some.stop()
        everything.stop()


def test_endpoints_health_metrics_and_openapi(server: ServerThread) -> None:
    status, _, body = request(f"{server.url}/endpoints")
    listing = json.loads(body)
    validate(listing, "EndpointList")
    assert [e["name"] for e in listing["endpoints"] if e["default"]] == ["default"]
    status, _, body = request(f"{server.url}/health")
    validate(json.loads(body), "Health")
    status, _, body = request(f"{server.url}/endpoints/ck25/index")
    assert status == 200
    validate(json.loads(body), "IndexStatus")
    status, _, _ = request(f"{server.url}/endpoints/nowhere/index")
    assert status == 404
    status, _, body = request(f"{server.url}/openapi.json")
    assert json.loads(body)["openapi"].startswith("3.")
    request(f"{server.url}/qa", {"question": "Which products?", "endpoint": "ck25", "options": {"paths": ["kgqan"]}})
    _, headers, metrics = request(f"{server.url}/metrics")
    text = metrics.decode()
    assert 'kgqa_http_requests_total{route="/qa",method="POST",status="200"}' in text
    assert 'kgqa_http_request_duration_seconds_count{route="/qa"}' in text
    assert 'kgqa_questions_total{path="kgqan",status="ok"}' in text
    assert "# TYPE kgqa_index_builds gauge" in text


def test_openapi_documents_every_json_route(server: ServerThread) -> None:
    documented = set(OPENAPI["paths"])
    assert {"/qa", "/qa/batch", "/endpoints", "/endpoints/{name}/index", "/text2sparql", "/sparql", "/health",
            "/metrics"} <= documented
    for path in documented:
        for operation in OPENAPI["paths"][path].values():
            for response in operation["responses"].values():
                for media in response.get("content", {}).values():
                    ref = media["schema"].get("$ref")
                    if ref:
                        assert ref.rsplit("/", 1)[1] in OPENAPI["components"]["schemas"]


def test_text2sparql_contract(server: ServerThread) -> None:
    status, _, body = request(f"{server.url}/text2sparql?question=Which+products%3F&dataset={CORPORATE}")
    assert status == 200
    answer = json.loads(body)
    validate(answer, "Text2SparqlResponse")
    assert answer["dataset"] == CORPORATE and answer["question"] == "Which products?"
    assert answer["query"].startswith("SELECT") and answer["endpoint"] == "ck25"
    status, _, body = request(f"{server.url}/text2sparql?question=q&dataset=https://example.org/unknown/")
    assert status == 404 and "Unknown dataset" in json.loads(body)["detail"]
    status, _, _ = request(f"{server.url}/text2sparql?dataset={CORPORATE}")
    assert status == 422


def test_text2sparql_client_evaluates_the_gateway_unchanged(server: ServerThread, tmp_path: Path) -> None:
    questions = tmp_path / "questions.yml"
    questions.write_text(
        f"dataset:\n  id: {CORPORATE}\n  prefix: ck\nquestions:\n"
        "  - id: 1\n    question:\n      en: Which products are offered?\n"
        "  - id: 2\n    question:\n      en: Who manages the department?\n      de: Wer leitet die Abteilung?\n")
    out = tmp_path / "answers.json"
    client = Path(sys.executable).parent / "text2sparql"
    run = subprocess.run([str(client), "ask", "--answers-db", str(tmp_path / "responses.db"), "-o", str(out),
                          str(questions), f"{server.url}/text2sparql"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    answers = json.loads(out.read_text())
    assert len(answers) == 3
    assert {a["qname"] for a in answers} == {"ck:1-en", "ck:2-en", "ck:2-de"}
    assert all(a["dataset"] == CORPORATE and a["query"].startswith("SELECT") for a in answers)


def test_kgqa_serve_runs_with_the_endpoints_file_datasets_and_json_logs(virtuoso: VirtuosoEngine,
                                                                        tmp_path: Path) -> None:
    config = virtuoso.endpoint("ck25", "ck25")
    endpoints = tmp_path / "endpoints.yaml"
    endpoints.write_text(f"endpoints:\n  ck25:\n    url: {config.url}\n    default_graph: {config.default_graph}\n"
                         f"datasets:\n  {CORPORATE}: ck25\n")
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as err:
        process = subprocess.Popen([sys.executable, "-m", "gateway.cli", "serve", "--port", str(port),
                                    "--endpoints-file", str(endpoints), "--endpoint", "ck25"],
                                   stdout=subprocess.DEVNULL, stderr=err, cwd=Path(__file__).resolve().parent.parent)
    try:
        for _ in range(100):
            try:
                status, _, body = request(f"http://127.0.0.1:{port}/health")
                break
            except urllib.error.URLError:
                if process.poll() is not None:
                    pytest.fail(log.read_text())
                time.sleep(0.1)
        health = json.loads(body)
        assert health["default"] == "ck25"
        query = urllib.parse.quote("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
        status, _, body = request(f"http://127.0.0.1:{port}/sparql?query={query}")
        assert status == 200 and int(json.loads(body)["results"]["bindings"][0]["n"]["value"]) == 26903
    finally:
        process.terminate()
        process.wait(15)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    requests_logged = [line for line in lines if line.get("logger") == "kgqa.access"]
    assert {"method", "path", "route", "status", "ms"} <= set(requests_logged[-1])
    assert requests_logged[-1]["route"] == "/sparql" and requests_logged[-1]["status"] == 200
    assert any("uvloop loop" in line.get("msg", "") for line in lines)  # a dependency, used by default


def test_kgqa_serve_refuses_a_dataset_mapped_to_an_unknown_endpoint(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "gateway.cli", "serve", "--port", str(free_port()),
                          "--dataset", f"{CORPORATE}=nowhere"], capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 2 and "nowhere" in run.stderr
