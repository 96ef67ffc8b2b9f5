"""Running the CLI's coroutines without hanging on worker threads at the end.

`asyncio.run` waits for every thread of the default executor before it returns, so a model or index
job still running in a thread (a HubLink build the user chose not to wait for, or work abandoned by
Ctrl-C) would keep `kgqa` alive after its answer was printed. `run` gives the loop an executor it
does not wait for; `exit_now` ends the process at once when such threads are still busy. Index builds
write atomically, so abandoning one leaves the previous index intact.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """Like `asyncio.run`, but does not wait for busy worker threads once `main` has finished."""
    loop = asyncio.new_event_loop()
    executor = ThreadPoolExecutor(max_workers=min(32, (os.cpu_count() or 1) + 4), thread_name_prefix="kgqa-worker")
    loop.set_default_executor(executor)
    try:
        asyncio.set_event_loop(loop)
        return loop.run_until_complete(main)
    finally:
        try:
            pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
            for task in pending:
                task.cancel()
            if pending:
                with contextlib.suppress(BaseException):
                    loop.run_until_complete(asyncio.wait(pending, timeout=5))
            with contextlib.suppress(BaseException):
                loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            executor.shutdown(wait=False, cancel_futures=True)
            asyncio.set_event_loop(None)
            loop.close()


def busy_worker_threads() -> list[str]:
    return [t.name for t in threading.enumerate()
            if t is not threading.main_thread() and t.is_alive() and not t.daemon]


def exit_now(code: int) -> None:
    """Ends the process with `code` without joining abandoned worker threads (if there are any)."""
    if busy_worker_threads():
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)
