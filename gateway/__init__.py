"""Gateway: endpoint access (SPARQL client, dialects, discovery, embedded store), the CLI, the
server and SPARQL proxy, batch runs and evaluation. Public surface: `Gateway`, `AskOptions`,
`EndpointRegistry`, `EndpointConfig`, `HttpSparqlClient`."""

from typing import Any

__all__ = ["AskOptions", "EndpointConfig", "EndpointRegistry", "Gateway", "HttpSparqlClient"]

_EXPORTS = {
    "Gateway": "gateway.qa",
    "AskOptions": "gateway.qa",
    "EndpointRegistry": "gateway.config",
    "EndpointConfig": "gateway.config",
    "HttpSparqlClient": "gateway.sparql",
}


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(name)
