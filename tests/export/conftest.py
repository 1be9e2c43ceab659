"""Fixtures: the seed knowledge base exported once per session (with real verification verdicts)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from kb.export import proofs, site
from kb.store import KnowledgeBase


@pytest.fixture(scope="session")
def seed_proofs(seed_kb: KnowledgeBase) -> proofs.Proofs:
    return proofs.collect(seed_kb)


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory, seed_kb: KnowledgeBase, seed_proofs: proofs.Proofs) -> Path:
    out = tmp_path_factory.mktemp("export") / "site"
    site.export_site(seed_kb, out, seed_proofs)
    return out


def html_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


@pytest.fixture(scope="session")
def soups(exported: Path) -> dict[Path, BeautifulSoup]:
    """Every exported page parsed once (parsing ~150 pages is the slow part of the page tests)."""
    return {page: BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser") for page in html_files(exported)}
