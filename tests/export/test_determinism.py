"""Exporting twice gives identical bytes; a failed export leaves the previous site as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb.export import proofs, search_index, site
from kb.store import KnowledgeBase


def _snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_exporting_twice_gives_identical_bytes(
    tmp_path: Path, exported: Path, seed_kb: KnowledgeBase, seed_proofs: proofs.Proofs
) -> None:
    again = tmp_path / "again"
    site.export_site(seed_kb, again, seed_proofs)
    first, second = _snapshot(exported), _snapshot(again)
    assert list(first) == list(second)
    different = [path for path in first if first[path] != second[path]]
    assert not different


def test_failed_export_leaves_the_previous_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exported: Path, seed_kb: KnowledgeBase, seed_proofs: proofs.Proofs
) -> None:
    out = tmp_path / "site"
    shutil.copytree(exported, out)  # the previous site
    before = _snapshot(out)

    real_render = site.render_page
    rendered: list[str] = []

    def render_then_fail(page: site.pages.Page, env: object) -> object:
        rendered.append(page.path)
        if len(rendered) == 40:  # half-way through the pages, some already written
            raise TypeError("boom")
        return real_render(page, env)  # type: ignore[arg-type]

    monkeypatch.setattr(site, "render_page", render_then_fail)
    with pytest.raises(TypeError):
        site.export_site(seed_kb, out, seed_proofs)
    assert len(rendered) == 40
    assert _snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # no staging directory left behind


def test_failure_while_building_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exported: Path, seed_kb: KnowledgeBase, seed_proofs: proofs.Proofs
) -> None:
    out = tmp_path / "site"
    shutil.copytree(exported, out)
    before = _snapshot(out)

    def boom(*_: object) -> str:
        raise RuntimeError("index builder crashed")

    monkeypatch.setattr(search_index, "site_index", boom)
    with pytest.raises(RuntimeError):
        site.export_site(seed_kb, out, seed_proofs)
    assert _snapshot(out) == before
