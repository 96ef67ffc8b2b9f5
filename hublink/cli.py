"""`kgqa index NAME|URL [--refresh]`: build (or refresh) the HubLink index of an endpoint, with progress.

Without `--refresh` an index that already exists is reported, not rebuilt. With it the endpoint is
read again and only hubs whose paths changed are embedded again.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from gateway.config import EndpointConfig


def _summary(config: EndpointConfig, index: Any, action: str, seconds: float, status: Any) -> dict[str, Any]:
    manifest = index.manifest
    return {
        "endpoint": config.name, "url": config.url, "default_graph": config.default_graph, "action": action,
        "seconds": round(seconds, 2), "folder": str(index.folder) if index.folder else None,
        "size_bytes": index.size_bytes(), "status": status.to_dict(), "manifest": manifest.to_dict(),
    }


def _render(data: dict[str, Any]) -> str:
    manifest = data["manifest"]
    discovery = manifest["discovery"]
    verb = {"built": "built", "refreshed": "refreshed", "existing": "already built"}[data["action"]]
    lines = [f"HubLink index of {data['endpoint']} ({data['url']}): {verb}"
             + (f" in {data['seconds']:.1f} s" if data["action"] != "existing" else f" on {manifest['built_at']}")]
    lines.append(f"  hub classes ({discovery['source']}):")
    for candidate in discovery.get("candidates", [])[:12]:
        mark = "+" if candidate["selected"] else "-"
        name = f"{candidate['label']} <{candidate['class']}>" if candidate["label"] else f"<{candidate['class']}>"
        lines.append(f"    {mark} {name}: {candidate['reason']}")
    if discovery["source"] == "configured":
        lines.extend(f"    + <{iri}> (configured)" for iri in discovery["classes"])
    lines.extend(f"  note: {note}" for note in discovery.get("notes", []) if discovery["source"] != "configured")
    build = manifest.get("build", {})
    lines.append(f"  {manifest['hubs']} hubs, {manifest['paths']} paths, {manifest['vectors']} vectors, "
                 f"{data['size_bytes'] / 1e6:.1f} MB in {data['folder']}")
    if build and data["action"] != "existing":
        lines.append(f"  time: discovery {build.get('discovery_s', 0):.1f} s, paths {build.get('paths_s', 0):.1f} s, "
                     f"embedding {build.get('embedding_s', 0):.1f} s ({build.get('texts_embedded', 0)} texts)")
        if build.get("truncated_hubs"):
            lines.append(f"  warning: {build['truncated_hubs']} hubs had more paths than max_paths_per_hub; "
                         "their paths were cut")
    if data["action"] == "refreshed":
        refresh = build.get("refresh", {})
        lines.append(f"  refresh: {refresh.get('reused', 0)} hubs unchanged, {refresh.get('reindexed', 0)} re-indexed, "
                     f"{refresh.get('added', 0)} added, {refresh.get('removed', 0)} removed")
    elif data["action"] == "existing":
        lines.append("  use --refresh to read the endpoint again and re-index the hubs that changed")
    return "\n".join(lines)


async def run_index(config: EndpointConfig, refresh: bool, show_progress: bool) -> dict[str, Any]:
    """Builds, refreshes or reports the index of `config`; returns the summary `kgqa index --json` prints."""
    from tqdm import tqdm

    from gateway.endpoint import EndpointPool
    from hublink.manager import index_manager
    from hublink.settings import HubLinkSettings

    manager = index_manager()
    settings = HubLinkSettings.from_env()
    pool = EndpointPool()
    endpoint = pool.get(config)
    bar = tqdm(total=100, unit="%", desc="HubLink index", file=sys.stderr, disable=None if show_progress else True,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}")

    def on_progress(status: Any) -> None:
        detail = f"{status.phase} {status.done}/{status.total}" if status.total else status.phase
        bar.set_description_str(f"HubLink index: {detail}"[:70])
        bar.n = round(status.progress * 100)
        bar.refresh()

    started = time.perf_counter()
    before = manager.builds_started
    try:
        index = await manager.get(endpoint, settings, wait=True, refresh=refresh, listener=on_progress)
    finally:
        bar.close()
        await pool.close()
    assert index is not None
    action = "refreshed" if refresh else ("built" if manager.builds_started > before else "existing")
    return _summary(config, index, action, time.perf_counter() - started, manager.status(config))


def main(args: argparse.Namespace) -> int:
    from gateway.aio import run as run_async
    from gateway.cli import print_json, registry_from_args

    registry = registry_from_args(args)
    config = registry.resolve(args.target)
    data = run_async(run_index(config, bool(args.refresh), show_progress=not args.json))
    if args.json:
        print_json(data)
    else:
        print(_render(data))
    return 0
