"""Helpers for the HubLink tests: a small slice of the ORKG graph and SPARQL updates on Oxigraph.

Embedding the whole ORKG graph takes tens of seconds on two cores, so most index tests use the first
few papers of it with everything they reach (their hubs, contributions, author lists, venues).
"""

from __future__ import annotations

import urllib.parse
import urllib.request
from collections import deque
from pathlib import Path

import pyoxigraph as ox

PAPER = "http://orkg.org/orkg/class/Paper"
RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
ORKGP = "http://orkg.org/orkg/predicate/"


def orkg_slice(source: Path, target: Path, papers: int) -> list[str]:
    """Writes the first `papers` ORKG papers and all they reach (plus predicate labels) to `target`."""
    store = ox.Store()
    store.bulk_load(path=str(source), format=ox.RdfFormat.TURTLE)
    roots = sorted(q.subject.value for q in store.quads_for_pattern(None, ox.NamedNode(RDF_TYPE), ox.NamedNode(PAPER)))
    chosen = roots[:papers]
    keep: list[ox.Triple] = []
    seen: set[str] = set(chosen)
    queue = deque(chosen)
    while queue:
        node = queue.popleft()
        for quad in store.quads_for_pattern(ox.NamedNode(node), None, None):
            keep.append(quad.triple)
            obj = quad.object
            if isinstance(obj, ox.NamedNode) and obj.value not in seen and quad.predicate.value != RDF_TYPE:
                seen.add(obj.value)
                queue.append(obj.value)
    for quad in store.quads_for_pattern(None, None, None):
        if quad.subject.value.startswith(ORKGP):
            keep.append(quad.triple)
    with open(target, "wb") as handle:
        ox.serialize(keep, handle, ox.RdfFormat.N_TRIPLES)
    return chosen


def sparql_update(engine_url: str, update: str) -> None:
    """Runs a SPARQL update on the Oxigraph server (`/update`)."""
    url = engine_url.rsplit("/", 1)[0] + "/update"
    data = urllib.parse.urlencode({"update": update}).encode()
    request = urllib.request.Request(url, data=data, method="POST",
                                     headers={"Content-Type": "application/x-www-form-urlencoded"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status < 300, response.status
