"""Where the project's data and build outputs live.

Defaults point into the checkout (``data/`` is edited by hand, ``build/`` is regenerated); the
environment variables ``KB_DATA_DIR`` and ``KB_BUILD_DIR`` move them, which tests use to work in a
temporary directory without touching the real knowledge base.
"""

from __future__ import annotations

import os
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    return Path(os.environ.get("KB_DATA_DIR", PROJECT_ROOT / "data"))


def build_dir() -> Path:
    return Path(os.environ.get("KB_BUILD_DIR", PROJECT_ROOT / "build"))


def sources_dir() -> Path:
    return data_dir() / "sources"


def glossary_dir() -> Path:
    return data_dir() / "glossary"


def kb_path() -> Path:
    """The knowledge base (SQLite, ``kb/db/``) that ``kb ingest`` writes and every other command reads."""
    return build_dir() / "kb.sqlite"


def legacy_kb_path() -> Path:
    """The earlier store's file: imported into ``kb_path()`` the first time it is opened."""
    return build_dir() / "kb.json"


def index_dir() -> Path:
    return build_dir() / "index"
