"""The KGQAN answer path: just-in-time entity and relation linking through the endpoint's own
text index, query building and ranking, execution, and filtering by answer type."""

from linking.path import KgqanEvidence, KgqanPath
from linking.queries import CandidateQuery, GeneratedQuery

__all__ = ["CandidateQuery", "GeneratedQuery", "KgqanEvidence", "KgqanPath"]
