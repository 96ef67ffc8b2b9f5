"""Real SPARQL engines started on 127.0.0.1 for tests and `kgqa eval --engine`.

Virtuoso comes from apt (`virtuoso-t`, `isql-vt`), Oxigraph from pip (the `oxigraph` server binary).
Each engine runs in a fresh temporary folder on free ports, holds any number of graphs (one named
graph each; an endpoint sets its `default_graph` to it), and is stopped and removed at the end.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from gateway.config import EndpointConfig
from gateway.errors import ConfigurationError

log = logging.getLogger(__name__)

GRAPH_BASE = "http://kgqa.local/graph/"
_RDF_SUFFIXES = {".ttl": "text/turtle", ".nt": "application/n-triples", ".rdf": "application/rdf+xml",
                 ".owl": "application/rdf+xml", ".xml": "application/rdf+xml", ".nq": "application/n-quads"}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


KEEP_ENGINE_LOGS = "KGQA_KEEP_ENGINE_LOGS"  # set: an engine's own temporary folder (data, log) is left after it stops


def graph_iri(name: str) -> str:
    return GRAPH_BASE + urllib.parse.quote(name, safe="")


def _wait_http(url: str, timeout_s: float, process: subprocess.Popen[bytes], log_file: Path) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"engine exited with {process.returncode}: {log_file.read_text(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            time.sleep(0.1)
    raise RuntimeError(f"engine did not answer on {url} within {timeout_s:g} s")


class LocalEngine:
    """A SPARQL engine process owned by this Python process."""

    kind: str = "engine"

    def __init__(self, workdir: Path | None = None) -> None:
        self._tmp = workdir is None
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix=f"kgqa-{self.kind}-"))
        self.http_port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.graphs: dict[str, str] = {}
        self.digests: dict[str, str] = {}

    @property
    def sparql_url(self) -> str:
        raise NotImplementedError

    def start(self) -> LocalEngine:
        raise NotImplementedError

    def load(self, path: Path | str, name: str | None = None) -> str:
        """Loads an RDF file into its own named graph; returns the graph IRI."""
        raise NotImplementedError

    def endpoint(self, name: str, graph: str | None = None, **settings: object) -> EndpointConfig:
        """An endpoint config that reads one loaded graph (the only graph if there is one)."""
        if graph is None:
            if len(self.graphs) != 1:
                raise ConfigurationError(f"say which graph: {', '.join(self.graphs) or 'none loaded'}")
            graph = next(iter(self.graphs))
        iri = self.graphs.get(graph, graph)
        settings.setdefault("data_id", self.digests.get(graph))
        return EndpointConfig(name=name, url=self.sparql_url, default_graph=iri, **settings)  # type: ignore[arg-type]

    def _remember(self, name: str, iri: str, source: Path) -> None:
        digest = hashlib.sha256()
        with source.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        self.graphs[name] = iri
        self.digests[name] = f"{name}:{digest.hexdigest()[:32]}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.process = None
        if self._tmp and not os.environ.get(KEEP_ENGINE_LOGS):  # kept: a failed run's log can be read afterwards
            shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> LocalEngine:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class VirtuosoEngine(LocalEngine):
    """OpenLink Virtuoso 7 with its full-text index over all literals (`bif:contains`)."""

    kind = "virtuoso"

    def __init__(self, workdir: Path | None = None, *, max_rows: int = 10000, max_query_s: int = 60) -> None:
        super().__init__(workdir)
        self.isql_port = free_port()
        self.max_rows = max_rows
        self.max_query_s = max_query_s

    @staticmethod
    def available() -> bool:
        return shutil.which("virtuoso-t") is not None and shutil.which("isql-vt") is not None

    @property
    def sparql_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/sparql"

    def _ini(self) -> str:
        d = self.workdir
        return f"""[Database]
DatabaseFile = {d}/virtuoso.db
ErrorLogFile = {d}/virtuoso.log
LockFile = {d}/virtuoso.lck
TransactionFile = {d}/virtuoso.trx
xa_persistent_file = {d}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
Striping = 0
TempStorage = TempDatabase
[TempDatabase]
DatabaseFile = {d}/virtuoso-temp.db
TransactionFile = {d}/virtuoso-temp.trx
[Parameters]
ServerPort = {self.isql_port}
DisableUnixSocket = 1
CheckpointInterval = 60
DirsAllowed = ., {d}
NumberOfBuffers = 20000
MaxDirtyBuffers = 12000
ThreadsPerQuery = 2
MaxClientConnections = 20
[HTTPServer]
ServerPort = {self.http_port}
ServerRoot = /var/lib/virtuoso-opensource-7/vsp
ServerThreads = 20
MaxKeepAlives = 20
KeepAliveTimeout = 10
EnabledGzipContent = 1
[SPARQL]
ResultSetMaxRows = {self.max_rows}
MaxQueryExecutionTime = {self.max_query_s}
MaxQueryCostEstimationTime = 400
"""

    def start(self) -> VirtuosoEngine:
        if not self.available():
            raise ConfigurationError("Virtuoso is not installed: run scripts/install-system.sh (apt virtuoso-opensource)")
        ini = self.workdir / "virtuoso.ini"
        ini.write_text(self._ini())
        log_file = self.workdir / "stdout.log"
        with log_file.open("wb") as out:
            self.process = subprocess.Popen(
                ["virtuoso-t", "+foreground", "+configfile", str(ini)],
                cwd=self.workdir, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )
        _wait_http(f"http://127.0.0.1:{self.http_port}/sparql?query=ASK%7B%7D", 60, self.process, log_file)
        self.isql("DB.DBA.RDF_OBJ_FT_RULE_ADD(null, null, 'All');")
        return self

    def isql(self, statements: str, timeout_s: float = 600) -> str:
        """Runs SQL statements through `isql-vt`; raises with Virtuoso's message on failure."""
        result = subprocess.run(
            ["isql-vt", str(self.isql_port), "dba", "dba", "VERBOSE=OFF", "BANNER=OFF", f"EXEC={statements}"],
            capture_output=True, text=True, timeout=timeout_s,
        )
        output = result.stdout + result.stderr
        if result.returncode != 0 or "*** Error" in output:
            raise RuntimeError(f"isql failed: {output.strip()[-2000:]}")
        return output

    def load(self, path: Path | str, name: str | None = None) -> str:
        source = Path(path)
        if source.suffix not in _RDF_SUFFIXES:
            raise ConfigurationError(f"cannot load {source.name}: use one of {', '.join(_RDF_SUFFIXES)}")
        name = name or source.stem
        iri = graph_iri(name)
        staged = self.workdir / "load" / f"{len(self.graphs)}{source.suffix}"
        staged.parent.mkdir(exist_ok=True)
        shutil.copyfile(source, staged)
        self.isql(
            f"ld_dir('{staged.parent}', '{staged.name}', '{iri}'); rdf_loader_run(); checkpoint; "
            "DB.DBA.VT_INC_INDEX_DB_DBA_RDF_OBJ();"
        )
        state = self.isql(f"SELECT ll_state, ll_error FROM DB.DBA.LOAD_LIST WHERE ll_file LIKE '%/{staged.name}';")
        if "NULL" not in state.split("\n", 3)[-1] and "Error" in state:
            raise RuntimeError(f"Virtuoso could not load {source}: {state.strip()}")
        staged.unlink(missing_ok=True)
        self._remember(name, iri, source)
        return iri


class OxigraphEngine(LocalEngine):
    """The Oxigraph server from the `oxigraph` pip package (no full-text index)."""

    kind = "oxigraph"

    @staticmethod
    def binary() -> str | None:
        candidate = Path(sys.executable).parent / "oxigraph"
        return str(candidate) if candidate.exists() else shutil.which("oxigraph")

    @property
    def sparql_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}/query"

    def start(self) -> OxigraphEngine:
        binary = self.binary()
        if binary is None:
            raise ConfigurationError("the oxigraph server is not installed: pip install oxigraph")
        log_file = self.workdir / "stdout.log"
        with log_file.open("wb") as out:
            self.process = subprocess.Popen(
                [binary, "serve", "--location", str(self.workdir / "store"), "--bind", f"127.0.0.1:{self.http_port}"],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            )
        _wait_http(f"http://127.0.0.1:{self.http_port}/query?query=ASK%7B%7D", 30, self.process, log_file)
        return self

    def load(self, path: Path | str, name: str | None = None) -> str:
        source = Path(path)
        content_type = _RDF_SUFFIXES.get(source.suffix)
        if content_type is None:
            raise ConfigurationError(f"cannot load {source.name}: use one of {', '.join(_RDF_SUFFIXES)}")
        name = name or source.stem
        iri = graph_iri(name)
        target = f"http://127.0.0.1:{self.http_port}/store?graph={urllib.parse.quote(iri, safe='')}"
        if content_type == "application/n-quads":
            target = f"http://127.0.0.1:{self.http_port}/store"
        request = urllib.request.Request(target, data=source.read_bytes(), method="POST",
                                         headers={"Content-Type": content_type})
        with urllib.request.urlopen(request, timeout=600) as response:
            if response.status >= 300:
                raise RuntimeError(f"Oxigraph refused {source}: HTTP {response.status}")
        self._remember(name, iri, source)
        return iri


ENGINES: dict[str, type[LocalEngine]] = {"virtuoso": VirtuosoEngine, "oxigraph": OxigraphEngine}


@contextlib.contextmanager
def running_engine(kind: str, files: dict[str, Path]):  # type: ignore[no-untyped-def]
    """Starts an engine of `kind`, loads `files` (graph name -> path), stops it afterwards."""
    if kind not in ENGINES:
        raise ConfigurationError(f"unknown engine {kind!r}; choose {', '.join(ENGINES)}")
    engine = ENGINES[kind]()
    try:
        engine.start()
        for name, path in files.items():
            engine.load(path, name)
        yield engine
    finally:
        engine.stop()
        if os.environ.get(KEEP_ENGINE_LOGS):
            log.info("engine folder was %s", engine.workdir)
