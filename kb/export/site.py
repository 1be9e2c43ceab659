"""``kb export site``: gather everything, then render into a fresh directory that replaces the old site.

Why this shape (MkDocs / Pelican style): page models are computed first (``pages.gather``), then
rendered with Jinja2 (autoescape on: source text never becomes markup) into a temporary directory;
only when every file is written does ``kb.atomic.replace_directory`` swap it in, so a failed export
leaves the previous site untouched. Output is deterministic: no timestamps, stable orders, sorted JSON.
"""

from __future__ import annotations

import gzip
import time
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from kb.atomic import replace_directory
from kb.export import dump, mana, pages, proofs, search_index, urls
from kb.store import KnowledgeBase

STATIC_FILES = ("site.css", "search.js")
INDEX_FILE = "static/search-index.js"
COLOR_NAMES = {"W": "белый", "U": "синий", "B": "черный", "R": "красный", "G": "зеленый"}


@dataclass
class ExportReport:
    """What ``kb export site`` prints: counts, sizes and timings."""

    out_dir: str
    pages: int
    files: int
    bytes: int
    index_bytes: int
    index_gzip_bytes: int
    home_search_gzip_bytes: int
    seconds: float
    verification: str
    coverage: dict[str, int]
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _package_dir(name: str) -> Path:
    return Path(str(resources.files("kb.export").joinpath(name)))


def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(_package_dir("templates"))),
        autoescape=select_autoescape(enabled_extensions=("html", "j2"), default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["symbols"] = mana.with_symbols
    env.filters["mana_cost"] = mana.mana_cost
    env.filters["section_url"] = urls.section_page
    env.filters["document_url"] = urls.document_page
    env.filters["card_url"] = urls.card_page
    env.filters["color_name"] = lambda code: COLOR_NAMES.get(code, code)
    return env


def render_pages(site: pages.SiteModel, env: Environment) -> dict[str, str]:
    """Every HTML page of the site, path → text."""
    out: dict[str, str] = {}
    for page in site.pages():
        template = env.get_template(page.template)
        out[page.path] = template.render(page=page, url=partial(urls.relative, page.path), root=urls.root_of(page.path))
    return out


def _gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def build_files(kb: KnowledgeBase, proof_set: proofs.Proofs | None = None) -> tuple[dict[str, bytes], pages.SiteModel]:
    """All files of the site in memory (path → bytes): the whole site is known before anything is written."""
    proof_set = proof_set if proof_set is not None else proofs.collect(kb)
    site = pages.gather(kb, proof_set)
    files = {path: text.encode("utf-8") for path, text in render_pages(site, environment()).items()}
    for name in STATIC_FILES:
        files[f"static/{name}"] = _package_dir("static").joinpath(name).read_bytes()
    files[INDEX_FILE] = search_index.build_script(site).encode("utf-8")
    files["data/entries.json"] = dump.render(kb, site).encode("utf-8")
    return files, site


MARKER = ".kb-export"


class ExportError(Exception):
    """The export cannot be written where asked (the message names the directory)."""


def check_target(out_dir: Path) -> None:
    """Refuse to replace a directory that is not ours: ``kb export site .`` must never wipe a checkout.

    An existing directory is replaced only when it is empty or holds the marker file a previous export left.
    """
    if out_dir.is_file() or out_dir.is_symlink():
        raise ExportError(f"{out_dir}: exists and is not a directory")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / MARKER).is_file():
        raise ExportError(f"{out_dir}: not empty and not a previous export (no {MARKER}); choose another directory")


def write_files(out_dir: Path, files: dict[str, bytes]) -> None:
    check_target(out_dir)
    with replace_directory(out_dir) as staging:
        (staging / MARKER).write_text("Written by `kb export`; this directory is replaced on each export.\n")
        for path in sorted(files):
            target = staging / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[path])


def export_site(kb: KnowledgeBase, out_dir: Path, proof_set: proofs.Proofs | None = None) -> ExportReport:
    started = time.perf_counter()
    check_target(out_dir)  # fail before the work, not after it
    proof_set = proof_set if proof_set is not None else proofs.collect(kb)
    files, site = build_files(kb, proof_set)
    write_files(out_dir, files)
    home_search = sum(_gz(files[p]) for p in ("index.html", "search.html", "static/site.css", "static/search.js"))
    return ExportReport(
        out_dir=str(out_dir),
        pages=sum(1 for p in files if p.endswith(".html")),
        files=len(files),
        bytes=sum(len(b) for b in files.values()),
        index_bytes=len(files[INDEX_FILE]),
        index_gzip_bytes=_gz(files[INDEX_FILE]),
        home_search_gzip_bytes=home_search + _gz(files[INDEX_FILE]),
        seconds=round(time.perf_counter() - started, 3),
        verification=proof_set.source,
        coverage=site.coverage,
        warnings=list(proof_set.warnings),
    )
