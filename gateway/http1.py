"""A lean HTTP/1.1 client transport for endpoints on this machine or the local network.

The SPARQL client (`gateway/sparql.py`) sends every request to a local `http://` endpoint through
this pool of kept connections instead of aiohttp's client: the proxy's CPU per request is what its
throughput against a local Virtuoso is limited by, and aiohttp's client machinery (tracing, cookie
jar, redirects, timers) was the largest part of it. Remote endpoints keep aiohttp (TLS, gzip,
redirects, proxies). What this transport does: GET and POST, kept connections per host, responses
framed by Content-Length, chunked encoding or connection close, gzip/deflate bodies decoded,
reading paused while a streamed body waits for its consumer, and one retry on a fresh connection
when a kept connection turns out to be closed before any byte of the answer came.
"""

from __future__ import annotations

import asyncio
import zlib
from collections import deque
from collections.abc import AsyncIterator, Mapping
from typing import Protocol, cast

from multidict import CIMultiDict, CIMultiDictProxy

MAX_HEAD_BYTES = 64 * 1024  # status line and headers
HIGH_WATER = 512 * 1024  # buffered body bytes at which reading from the socket pauses
NO_BODY_STATUSES = frozenset({204, 304})


class Http1Error(ConnectionError):
    """The endpoint broke the HTTP/1.1 protocol or the connection (the SPARQL client reports it as unreachable)."""


class Http1ConnectError(Http1Error):
    """No connection could be made (refused, unreachable host)."""


class _StaleConnection(Http1Error):
    """A kept connection was closed by the server before it answered: safe to send again."""


class ConnectionSink(Protocol):
    """Takes a connection's bytes as they arrive, instead of its buffer (the proxy's relay)."""

    def upstream_data(self, data: bytes) -> None: ...

    def upstream_closed(self, exc: BaseException | None) -> None: ...


class Connection(asyncio.Protocol):
    """One TCP connection: bytes in a buffer, a waiter woken when more arrive or the peer closes;
    or, while a `sink` is set, every byte handed to the sink at once."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.closed = False
        self.error: BaseException | None = None
        self.used = False  # has answered a request before (a closed kept connection is stale, not broken)
        self.sink: ConnectionSink | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._paused = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio subclasses

    def data_received(self, data: bytes) -> None:
        if self.sink is not None:
            self.sink.upstream_data(data)
            return
        self.buffer += data
        if len(self.buffer) > HIGH_WATER and self.transport is not None and not self._paused:
            self._paused = True
            self.transport.pause_reading()
        self._wake()

    def eof_received(self) -> bool:
        self.closed = True
        if self.sink is not None:
            self.sink.upstream_closed(None)
        self._wake()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        already = self.closed
        self.closed = True
        self.error = exc
        if self.sink is not None and not already:
            self.sink.upstream_closed(exc)
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def more(self) -> None:
        """Wait until more bytes arrive; raises if the connection closed without them."""
        if self.closed:
            raise Http1Error(f"connection closed by the endpoint{f': {self.error}' if self.error else ''}")
        if self._paused and self.transport is not None:
            self._paused = False
            self.transport.resume_reading()
        self._waiter = asyncio.get_running_loop().create_future()
        try:
            await self._waiter
        finally:
            self._waiter = None

    def take(self, size: int) -> bytes:
        data = bytes(self.buffer[:size])
        del self.buffer[:size]
        if self._paused and len(self.buffer) < HIGH_WATER and self.transport is not None:
            self._paused = False
            self.transport.resume_reading()
        return data

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()


class Http1Response:
    """An answer whose body is read on demand; `release()` gives the connection back once it is read."""

    def __init__(self, pool: Http1Pool, connection: Connection, status: int, reason: str,
                 headers: CIMultiDictProxy[str], *, head_only: bool, keep_alive: bool) -> None:
        self._pool = pool
        self._connection: Connection | None = connection
        self.status = status
        self.reason = reason
        self.headers = headers
        self._keep_alive = keep_alive
        encoding = headers.get("Content-Encoding", "identity").strip().lower()
        self._decoder = (zlib.decompressobj(16 + zlib.MAX_WBITS) if encoding in ("gzip", "x-gzip")
                         else zlib.decompressobj() if encoding == "deflate" else None)
        self._chunked = "chunked" in headers.get("Transfer-Encoding", "").lower()
        length = headers.get("Content-Length")
        self._remaining: int | None = int(length) if length is not None and length.strip().isdigit() else None
        self._chunk_left = 0  # bytes left in the current chunk (chunked encoding)
        self._done = head_only or status in NO_BODY_STATUSES or 100 <= status < 200 or self._remaining == 0
        if not self._chunked and self._remaining is None and not self._done:
            self._keep_alive = False  # the body ends when the connection does
        self.content = self  # aiohttp's spelling: `response.content.iter_chunked(n)`, `.content.read(n)`
        if self._done:  # no body to wait for: the connection can serve the next request at once
            self._finish(reusable=keep_alive)

    @property
    def content_length(self) -> int | None:
        """The body's length in bytes as it will be read (None if unknown or decoded from gzip)."""
        return None if self._decoder is not None or self._chunked else self._remaining

    async def read(self, limit: int = -1) -> bytes:
        """The rest of the body (or at most `limit` bytes of it)."""
        parts: list[bytes] = []
        size = 0
        while limit < 0 or size < limit:
            part = await self._next(limit - size if limit >= 0 else 1 << 30)
            if not part:
                break
            parts.append(part)
            size += len(part)
        return b"".join(parts)

    async def iter_chunked(self, size: int) -> AsyncIterator[bytes]:
        while True:
            part = await self._next(size)
            if not part:
                return
            yield part

    async def _next(self, most: int) -> bytes:
        """Up to `most` decoded body bytes; b"" at the end of the body."""
        while True:
            decoder = self._decoder
            if decoder is not None and decoder.unconsumed_tail:
                raw = decoder.unconsumed_tail
            else:
                raw = await self._next_raw(most)
                if not raw:
                    if decoder is not None:
                        tail, self._decoder = decoder.flush(), None
                        return tail
                    return b""
                if decoder is None:
                    return raw
            try:
                decoded = decoder.decompress(raw, most)
            except zlib.error as exc:
                raise Http1Error(f"the endpoint's compressed answer is corrupt: {exc}") from exc
            if decoded:
                return decoded

    async def _next_raw(self, most: int) -> bytes:
        connection = self._connection
        if self._done or connection is None:
            return b""
        if self._chunked:
            return await self._next_chunk(connection, most)
        while not connection.buffer:
            if connection.closed and self._remaining is None:
                self._finish(reusable=False)
                return b""
            try:
                await connection.more()
            except Http1Error as exc:
                raise Http1Error(f"connection broke while reading the answer: {exc}") from exc
        size = min(most, len(connection.buffer)) if self._remaining is None else min(most, len(connection.buffer),
                                                                                      self._remaining)
        data = connection.take(size)
        if self._remaining is not None:
            self._remaining -= len(data)
            if self._remaining == 0:
                self._finish(reusable=self._keep_alive)
        return data

    async def _next_chunk(self, connection: Connection, most: int) -> bytes:
        if self._chunk_left == 0:
            line = await _read_line(connection)
            try:
                self._chunk_left = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError as exc:
                raise Http1Error(f"bad chunk size line {line[:40]!r}") from exc
            if self._chunk_left == 0:
                while await _read_line(connection):  # trailers end with an empty line
                    pass
                self._finish(reusable=self._keep_alive)
                return b""
        while not connection.buffer:
            await connection.more()
        data = connection.take(min(most, self._chunk_left, len(connection.buffer)))
        self._chunk_left -= len(data)
        if self._chunk_left == 0:
            end = await _read_exactly(connection, 2)
            if end != b"\r\n":
                raise Http1Error("chunk not followed by CRLF")
        return data

    def _finish(self, reusable: bool) -> None:
        self._done = True
        connection, self._connection = self._connection, None
        if connection is not None:
            self._pool.give_back(connection, reusable and not connection.buffer)

    def release(self) -> None:
        """Done with the response: a fully read body keeps the connection, anything else closes it."""
        if self._connection is not None:
            self._finish(reusable=False)


async def _read_line(connection: Connection) -> bytes:
    while True:
        end = connection.buffer.find(b"\r\n")
        if end >= 0:
            line = connection.take(end + 2)
            return line[:-2]
        if len(connection.buffer) > MAX_HEAD_BYTES:
            raise Http1Error("line too long in the endpoint's answer")
        await connection.more()


async def _read_exactly(connection: Connection, size: int) -> bytes:
    while len(connection.buffer) < size:
        await connection.more()
    return connection.take(size)


class Http1Pool:
    """Kept connections to one host and port; requests are sent one at a time per connection."""

    def __init__(self, host: str, port: int, *, max_idle: int = 64) -> None:
        self.host = host
        self.port = port
        self.max_idle = max_idle
        self._idle: deque[Connection] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._host_header = host if port == 80 else f"{host}:{port}"
        if ":" in host and not host.startswith("["):
            self._host_header = f"[{host}]" if port == 80 else f"[{host}]:{port}"

    async def request(self, method: str, target: str, headers: Mapping[str, str], body: bytes = b"",
                      *, connect_timeout_s: float = 10.0) -> Http1Response:
        """Send one request and read the answer's head; the body is read from the response."""
        head = self.request_head(method, target, headers, body)
        while True:
            connection = self.checkout()
            fresh = connection is None
            if connection is None:
                connection = await self.connect(connect_timeout_s)
            try:
                assert connection.transport is not None
                connection.transport.write(head + body if len(body) < 16384 else head)
                if len(body) >= 16384:
                    connection.transport.write(body)
                return await self._read_head(connection, method)
            except _StaleConnection:
                connection.close()
                if fresh:
                    raise Http1Error("the endpoint closed the connection without answering") from None
            except BaseException:
                connection.close()
                raise

    def checkout(self) -> Connection | None:
        """An idle kept connection of this event loop that is still open, if there is one."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # connections of a finished event loop cannot be used any more
            self._idle.clear()
            self._loop = loop
        while self._idle:
            connection = self._idle.pop()
            if not connection.closed:  # else closed by the server while idle
                return connection
        return None

    def request_head(self, method: str, target: str, headers: Mapping[str, str], body: bytes = b"") -> bytes:
        """The request line and headers as sent; refuses line breaks in them (header injection)."""
        lines = [f"{method} {target} HTTP/1.1", f"Host: {self._host_header}"]
        lines.extend(f"{name}: {value}" for name, value in headers.items() if name.lower() != "host")
        if any(c in line for line in lines for c in "\r\n\0"):
            raise Http1Error("a request header or target holds a line break; refusing to send it")
        if body or method == "POST":
            lines.append(f"Content-Length: {len(body)}")
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")

    async def connect(self, timeout_s: float) -> Connection:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout_s):
                _, protocol = await loop.create_connection(Connection, self.host, self.port)
        except TimeoutError:
            raise
        except OSError as exc:
            raise Http1ConnectError(str(exc) or type(exc).__name__) from exc
        return protocol

    async def _read_head(self, connection: Connection, method: str) -> Http1Response:
        while True:
            end = connection.buffer.find(b"\r\n\r\n")
            if end >= 0:
                break
            if len(connection.buffer) > MAX_HEAD_BYTES:
                raise Http1Error("the endpoint's answer headers are too large")
            if connection.closed:
                self._raise_closed(connection)
            await connection.more()
        head = connection.take(end + 4)[:-4].decode("latin-1")
        status_line, *header_lines = head.split("\r\n")
        parts = status_line.split(" ", 2)
        if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
            raise Http1Error(f"not an HTTP/1.x answer: {status_line[:80]!r}")
        headers: CIMultiDict[str] = CIMultiDict()
        for line in header_lines:
            name, sep, value = line.partition(":")
            if not sep:
                raise Http1Error(f"bad header line in the endpoint's answer: {line[:80]!r}")
            headers.add(name.strip(), value.strip())
        status = int(parts[1])
        connection_header = headers.get("Connection", "").lower()
        keep_alive = ("close" not in connection_header) if parts[0] == "HTTP/1.1" else ("keep-alive" in connection_header)
        connection.used = True
        if 100 <= status < 200 and status != 101:  # an interim answer (100 Continue): the real one follows
            return await self._read_head(connection, method)
        return Http1Response(self, connection, status, parts[2] if len(parts) > 2 else "", CIMultiDictProxy(headers),
                             head_only=method == "HEAD", keep_alive=keep_alive)

    @staticmethod
    def _raise_closed(connection: Connection) -> None:
        if connection.used and not connection.buffer:
            raise _StaleConnection()
        raise Http1Error("the endpoint closed the connection in the middle of its answer's headers")

    def give_back(self, connection: Connection, reusable: bool) -> None:
        if reusable and not connection.closed and len(self._idle) < self.max_idle:
            self._idle.append(connection)
        else:
            connection.close()

    def close(self) -> None:
        while self._idle:
            self._idle.pop().close()
