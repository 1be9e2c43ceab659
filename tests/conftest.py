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


VERIFY_PASSING = """
id: ok
title: ок
rulings: [shm/persist/1]
setup:
  active: alice
  alice: {mana: "{R}", hand: [Shock]}
actions:
  - {cast: Shock, targets: [bob]}
  - resolve
expect:
  - life: {bob: 18}
"""
VERIFY_FAILING = (
    VERIFY_PASSING.replace("id: ok", "id: bad").replace("shm/persist/1", "shm/persist/2").replace("18", "17")
)


def verify_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kb: KnowledgeBase) -> Path:
    """A data dir where shm/persist/1 is verified, /2 failing, /3 unlinked, /4 not simulable (release_info),
    with ``kb`` stored as the knowledge base; the environment points kb at both."""
    import shutil

    from kb.store import save

    root = Path(__file__).resolve().parents[1]
    data = tmp_path / "data"
    shutil.copytree(root / "data" / "cards", data / "cards")
    shutil.copytree(root / "data" / "rules", data / "rules")
    (data / "scenarios").mkdir()
    (data / "scenarios" / "ok.yaml").write_text(VERIFY_PASSING, encoding="utf-8")
    (data / "scenarios" / "bad.yaml").write_text(VERIFY_FAILING, encoding="utf-8")
    (data / "not_simulable.yaml").write_text('shm/persist/4: {reason: release_info, why: "даты"}\n', encoding="utf-8")
    build = tmp_path / "build"
    build.mkdir()
    save(kb, build / "kb.sqlite")
    monkeypatch.setenv("KB_DATA_DIR", str(data))
    monkeypatch.setenv("KB_BUILD_DIR", str(build))
    return data
