"""Endpoint registry: names from endpoints.yaml, bare URLs on auto, secrets from the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from gateway.config import EndpointRegistry
from gateway.errors import ConfigurationError, UnknownEndpoint

ROOT = Path(__file__).resolve().parent.parent


def test_shipped_endpoints_file_has_public_graphs() -> None:
    registry = EndpointRegistry.from_file(ROOT / "endpoints.yaml")
    for name in ("dbpedia", "wikidata", "orkg", "dblp", "default"):
        assert name in registry.names()
    dbpedia = registry.resolve("dbpedia")
    assert dbpedia.url == "https://dbpedia.org/sparql"
    assert dbpedia.text_search == "virtuoso"
    assert registry.resolve(None).is_embedded


def test_bare_url_gets_auto_settings_and_known_url_its_entry() -> None:
    registry = EndpointRegistry.from_file(ROOT / "endpoints.yaml")
    adhoc = registry.resolve("http://127.0.0.1:9999/sparql")
    assert adhoc.text_search == "auto" and adhoc.label_predicates is None
    assert registry.resolve("https://dbpedia.org/sparql").name == "dbpedia"


def test_unknown_name_is_a_clear_error() -> None:
    registry = EndpointRegistry()
    with pytest.raises(UnknownEndpoint, match="neither a configured endpoint"):
        registry.resolve("no-such-graph")


def test_header_secrets_come_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "endpoints.yaml"
    path.write_text(
        "endpoints:\n  corp:\n    url: https://kg.example.com/sparql\n"
        "    headers:\n      Authorization: Bearer ${CORP_TOKEN}\n    label_predicates: auto\n"
    )
    config = EndpointRegistry.from_file(path).resolve("corp")
    assert "${CORP_TOKEN}" in config.headers["Authorization"]  # the file never holds the secret
    monkeypatch.delenv("CORP_TOKEN", raising=False)
    with pytest.raises(ConfigurationError, match="CORP_TOKEN"):
        config.resolved_headers()
    monkeypatch.setenv("CORP_TOKEN", "s3cret")
    assert config.resolved_headers() == {"Authorization": "Bearer s3cret"}


@pytest.mark.parametrize(
    "body, message",
    [
        ("endpoints:\n  x:\n    default_graph: http://g\n", "must be a mapping with a 'url'"),
        ("endpoints:\n  x:\n    url: ftp://host/sparql\n", "not an http"),
        ("endpoints:\n  x:\n    url: http://h/sparql\n    colour: blue\n", "unknown keys: colour"),
        ("endpoints: [1, 2]\n", "must be a mapping"),
        ("endpoints:\n  x: {url: http://h/sparql\n", "not valid YAML"),
    ],
)
def test_malformed_files_give_clear_errors(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "endpoints.yaml"
    path.write_text(body)
    with pytest.raises(ConfigurationError, match=message):
        EndpointRegistry.from_file(path)
