"""The HubLink answer path: lazily built per-endpoint hub indexes and retrieval with sources."""
