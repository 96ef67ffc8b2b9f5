"""The HubLink answer path: lazily built per-endpoint hub indexes and retrieval with sources.

After Schneider, "HubLink" (Master's thesis, KIT 2025; code `Sidies/MasterThesis-HubLink`). Importing
this package is cheap: models load on first use.
"""

from hublink.answer_path import HubLinkPath
from hublink.manager import IndexManager, IndexStatus, index_manager, index_status
from hublink.settings import HubLinkSettings

__all__ = ["HubLinkPath", "HubLinkSettings", "IndexManager", "IndexStatus", "index_manager", "index_status"]
