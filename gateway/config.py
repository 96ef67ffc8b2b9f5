"""Named endpoints from `endpoints.yaml`, and bare URLs with everything on `auto`.

Secrets never live in the file: a header value written `${ENV_NAME}` is read from the environment
when the endpoint is resolved, and a missing variable is a clear configuration error.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import yaml

from gateway.errors import ConfigurationError, UnknownEndpoint

EMBEDDED_URL = "embedded:"
DEFAULT_ENDPOINT_NAME = "default"
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


@dataclass(frozen=True)
class EndpointConfig:
    """How to reach and read one SPARQL endpoint. `auto` fields are discovered on first contact."""

    name: str
    url: str
    default_graph: str | None = None
    text_search: str = "auto"
    label_predicates: tuple[str, ...] | None = None  # None means auto-discover
    language: str = "en"
    timeout_s: float = 30.0
    max_concurrency: int = 8
    headers: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    hub_classes: tuple[str, ...] | None = None  # None means discover (HubLink)
    description: str = ""
    data_id: str | None = None  # identifies the data wherever it is served (e.g. a hash of loaded files)

    @property
    def is_embedded(self) -> bool:
        return self.url.startswith(EMBEDDED_URL)

    @property
    def cache_key(self) -> str:
        """Identifies this endpoint (URL and graph): for what depends on the engine, like its dialect."""
        return f"{self.url}|{self.default_graph or ''}"

    @property
    def data_key(self) -> str:
        """Identifies the data behind the endpoint: for caches of the data itself, like a hub index,
        so that the same graph served again on another port (a local engine) reuses them."""
        return f"data:{self.data_id}" if self.data_id else self.cache_key

    def resolved_headers(self) -> dict[str, str]:
        """Header values with `${ENV}` references replaced from the environment."""

        def substitute(value: str) -> str:
            def one(match: re.Match[str]) -> str:
                var = match.group(1)
                if var not in os.environ:
                    raise ConfigurationError(
                        f"endpoint {self.name!r} needs environment variable {var} for a header",
                        endpoint=self.name,
                    )
                return os.environ[var]

            return _ENV_REF.sub(one, value)

        return {key: substitute(value) for key, value in self.headers.items()}


def default_endpoints_path() -> Path:
    """$KGQA_ENDPOINTS, else the repository's endpoints.yaml."""
    return Path(os.environ.get("KGQA_ENDPOINTS") or Path(__file__).resolve().parent.parent / "endpoints.yaml")


def cache_dir() -> Path:
    """Where per-endpoint caches (profiles, HubLink indexes) live: $KGQA_CACHE_DIR or ~/.cache/kgqa."""
    root = Path(os.environ.get("KGQA_CACHE_DIR") or Path.home() / ".cache" / "kgqa")
    root.mkdir(parents=True, exist_ok=True)
    return root


def _is_url(text: str) -> bool:
    parsed = urlparse(text)
    return parsed.scheme in {"http", "https"} and bool(parsed.netloc)


def _parse_entry(name: str, raw: dict[str, Any]) -> EndpointConfig:
    if not isinstance(raw, dict) or "url" not in raw:
        raise ConfigurationError(f"endpoint {name!r} must be a mapping with a 'url'")
    known = {
        "url", "default_graph", "text_search", "label_predicates", "language", "timeout_s",
        "max_concurrency", "headers", "hub_classes", "description",
    }
    unknown = set(raw) - known
    if unknown:
        raise ConfigurationError(f"endpoint {name!r} has unknown keys: {', '.join(sorted(unknown))}")
    url = str(raw["url"])
    if not (_is_url(url) or url.startswith(EMBEDDED_URL)):
        raise ConfigurationError(f"endpoint {name!r}: {url!r} is not an http(s) URL")

    def as_tuple(value: Any) -> tuple[str, ...] | None:
        if value in (None, "auto"):
            return None
        if isinstance(value, str):
            return (value,)
        return tuple(str(v) for v in value)

    return EndpointConfig(
        name=name,
        url=url,
        default_graph=raw.get("default_graph"),
        text_search=str(raw.get("text_search", "auto")),
        label_predicates=as_tuple(raw.get("label_predicates")),
        language=str(raw.get("language", "en")),
        timeout_s=float(raw.get("timeout_s", 30.0)),
        max_concurrency=int(raw.get("max_concurrency", 8)),
        headers={str(k): str(v) for k, v in (raw.get("headers") or {}).items()},
        hub_classes=as_tuple(raw.get("hub_classes")),
        description=str(raw.get("description", "")),
    )


class EndpointRegistry:
    """Resolves a name from the file, or any bare URL, to an `EndpointConfig`."""

    def __init__(self, endpoints: dict[str, EndpointConfig] | None = None) -> None:
        self._endpoints: dict[str, EndpointConfig] = dict(endpoints or {})
        if DEFAULT_ENDPOINT_NAME not in self._endpoints:
            self._endpoints[DEFAULT_ENDPOINT_NAME] = EndpointConfig(
                name=DEFAULT_ENDPOINT_NAME,
                url=EMBEDDED_URL,
                description="In-process pyoxigraph store with the bundled demo graph (or --load FILE)",
            )

    @classmethod
    def from_file(cls, path: Path | str | None = None) -> EndpointRegistry:
        """Reads `endpoints.yaml` (the repository's by default, or $KGQA_ENDPOINTS)."""
        if path is None:
            path = default_endpoints_path()
        path = Path(path)
        if not path.exists():
            return cls()
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            raise ConfigurationError(f"{path} is not valid YAML: {exc}") from exc
        entries = data.get("endpoints", {}) if isinstance(data, dict) else {}
        if not isinstance(entries, dict):
            raise ConfigurationError(f"{path}: 'endpoints' must be a mapping of name to settings")
        return cls({name: _parse_entry(name, raw) for name, raw in entries.items()})

    def names(self) -> list[str]:
        return list(self._endpoints)

    def all(self) -> list[EndpointConfig]:
        return list(self._endpoints.values())

    def add(self, config: EndpointConfig) -> None:
        self._endpoints[config.name] = config

    def resolve(self, name_or_url: str | None, **overrides: Any) -> EndpointConfig:
        """A registered name, a bare http(s) URL (all settings `auto`), or None for the default."""
        key = name_or_url or DEFAULT_ENDPOINT_NAME
        if key in self._endpoints:
            config = self._endpoints[key]
        elif _is_url(key):
            known = next((c for c in self._endpoints.values() if c.url == key), None)
            config = known or EndpointConfig(name=key, url=key)
        elif key.startswith(EMBEDDED_URL):
            config = EndpointConfig(name=key, url=key)
        else:
            raise UnknownEndpoint(
                f"{key!r} is neither a configured endpoint ({', '.join(self._endpoints)}) nor an http(s) URL"
            )
        overrides = {k: v for k, v in overrides.items() if v is not None}
        return replace(config, **overrides) if overrides else config
