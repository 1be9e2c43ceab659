"""Shared fixtures: the bundled knowledge base, parsed once per session, and an isolated build dir."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ingest.entries import ParsedDocument
from kb import build as kb_build
from kb import paths
from kb.store import KnowledgeBase

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SOURCES = PROJECT_ROOT / "data" / "sources"


@pytest.fixture(scope="session")
def parsed_seeds() -> list[ParsedDocument]:
    return kb_build.parse_sources(kb_build.bundled_sources(SOURCES))


@pytest.fixture(scope="session")
def seed_kb(parsed_seeds: list[ParsedDocument]) -> KnowledgeBase:
    return kb_build.build(parsed_seeds)


@pytest.fixture
def build_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point KB_BUILD_DIR at a temporary directory so tests never touch the real build/."""
    directory = tmp_path / "build"
    monkeypatch.setenv("KB_BUILD_DIR", str(directory))
    assert paths.build_dir() == directory
    yield directory


@pytest.fixture(autouse=True)
def russian_interface(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The CLI speaks the locale's language (kb.i18n): tests start from no locale, so Russian, whatever the machine."""
    from kb import i18n

    for variable in i18n.LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    i18n.set_language(None)
    yield
    i18n.set_language(None)
