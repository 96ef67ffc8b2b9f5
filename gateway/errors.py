"""Classified errors of endpoint access: each says what went wrong and where, in words a user can act on."""

from __future__ import annotations


class GatewayError(Exception):
    """Base of every error the gateway reports to a user instead of crashing."""

    kind: str = "error"

    def __init__(self, message: str, *, endpoint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.endpoint = endpoint

    def __str__(self) -> str:
        where = f" [{self.endpoint}]" if self.endpoint else ""
        return f"{self.kind}{where}: {self.message}"

    def to_dict(self) -> dict[str, str | None]:
        return {"kind": self.kind, "message": self.message, "endpoint": self.endpoint}


class ConfigurationError(GatewayError):
    kind = "configuration"


class UnknownEndpoint(ConfigurationError):
    kind = "unknown-endpoint"


class SparqlError(GatewayError):
    """Anything that went wrong while running one SPARQL request."""

    kind = "sparql-error"


class SparqlSyntaxError(SparqlError):
    """The endpoint rejected the query; `message` carries the endpoint's own words."""

    kind = "syntax-error"


class EndpointUnreachable(SparqlError):
    kind = "unreachable"


class EndpointTimeout(SparqlError):
    kind = "timeout"


class EndpointHTTPError(SparqlError):
    kind = "http-error"

    def __init__(self, message: str, *, status: int, endpoint: str | None = None) -> None:
        super().__init__(message, endpoint=endpoint)
        self.status = status

    def to_dict(self) -> dict[str, str | None]:
        return {**super().to_dict(), "status": str(self.status)}


class ResultTooLarge(SparqlError):
    kind = "result-too-large"


class RequestBudgetSpent(SparqlError):
    """A question's SPARQL request budget is spent: the request was not sent."""

    kind = "request-budget-spent"


class UpdateRefused(SparqlError):
    """SPARQL Update sent to a read-only gateway."""

    kind = "update-refused"
