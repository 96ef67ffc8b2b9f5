"""The trained question -> PGP model (weights in understanding/weights/)."""

from __future__ import annotations

from pathlib import Path

WEIGHTS_DIR = Path(__file__).parent / "weights"
WEIGHTS_FILE = WEIGHTS_DIR / "pattern_model.safetensors"


def load_pattern_model():  # noqa: ANN201
    """Loads the trained model; `FileNotFoundError` when no weights have been trained yet."""
    if not WEIGHTS_FILE.exists():
        raise FileNotFoundError(f"{WEIGHTS_FILE.relative_to(Path(__file__).parent.parent)} is missing")
    raise NotImplementedError("the pattern model is being built")
