"""``kb export site``: gather the page models, then stream the pages into a directory that replaces the old site.

Why this shape (MkDocs / Pelican style): page models are computed first (``pages.gather``), then
rendered with Jinja2 (autoescape on: source text never becomes markup) page by page straight into a
staging directory (``write_site``: no page is kept once written); only when every file is written does
``kb.export.publish`` swap it in, world-readable, so a failed export leaves the previous site untouched.
Output is deterministic: no timestamps, stable orders, sorted JSON.
"""

from __future__ import annotations

import gzip
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from kb.export import dump, mana, pages, proofs, publish, search_index, urls
from kb.i18n import t
from kb.store import KnowledgeBase

STATIC_FILES = ("site.css", "search.js")
INDEX_DIR = "static/search"
INDEX_FILE = f"{INDEX_DIR}/meta.js"  # the rest of the index: shards beside it, loaded on demand
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
    """The site's Jinja environment: templates compiled once per export (``auto_reload`` off: no ``stat`` of
    every template for every page), autoescape on."""
    env = Environment(
        loader=FileSystemLoader(str(_package_dir("templates"))),
        auto_reload=False,
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


def render_page(page: pages.Page, env: Environment) -> Iterable[str]:
    """One page's HTML (joined, the pieces are ``template.render``'s text).

    Rendered whole, not as Jinja's stream of pieces: a page is at most a few hundred kilobytes, and the
    million small pieces of a 100,000-entry site cost more to pass along than to join (each one was encoded
    and written apart)."""
    template = env.get_template(page.template)
    return [template.render(page=page, url=partial(urls.relative, page.path), root=urls.root_of(page.path))]


def render_pages(site: pages.SiteModel, env: Environment) -> dict[str, str]:
    """Every HTML page of the site, path → text (for tests; the export itself streams, ``write_site``)."""
    return {page.path: "".join(render_page(page, env)) for page in site.pages()}


def _gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=6, mtime=0))


GZIP_MEASURED = ("index.html", "search.html", "static/site.css", "static/search.js", INDEX_FILE)


@dataclass
class _Written:
    """What was written, for the report: counts and sizes, never the files' contents."""

    files: int = 0
    pages: int = 0
    bytes: int = 0
    sizes: dict[str, int] = field(default_factory=dict)
    gzip_sizes: dict[str, int] = field(default_factory=dict)
    index_bytes: int = 0  # every file of the search index (a query loads a few of them)


class _Writer:
    """Writes each file as it comes (streamed in pieces) into the staging directory, and counts.

    Each directory is made once (a site has tens of thousands of files in a few hundred directories); no
    file is fsynced: the staging directory is published by renames only once complete (``kb.export.publish``),
    and a crash before that leaves the previous site, whatever was written."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.done = _Written()
        self.made: set[str] = set()

    def write(self, path: str, pieces: Iterable[str | bytes]) -> None:
        target = os.path.join(self.root, path)
        parent = os.path.dirname(target)
        if parent not in self.made:
            os.makedirs(parent, exist_ok=True)
            self.made.add(parent)
        size = 0
        with open(target, "wb", buffering=1 << 16) as handle:
            for piece in pieces:
                data = piece.encode("utf-8") if isinstance(piece, str) else piece
                handle.write(data)
                size += len(data)
        self.done.files += 1
        self.done.bytes += size
        self.done.pages += path.endswith(".html")
        if path.startswith(INDEX_DIR + "/"):
            self.done.index_bytes += size
        if path in GZIP_MEASURED:
            self.done.sizes[path] = size
            self.done.gzip_sizes[path] = _gz(Path(target).read_bytes())


def write_site(root: Path, kb: KnowledgeBase, site: pages.SiteModel) -> _Written:
    """Render and write every file of the site into ``root``, one at a time: memory stays one page's worth.

    The page models (``site``) are small; the rendered HTML of a 100,000-entry site is a gigabyte, so
    it is never held whole: each page goes to its file as Jinja renders it.
    """
    writer = _Writer(root)
    env = environment()
    for page in site.pages():
        writer.write(page.path, render_page(page, env))
    urls.clear_cache()  # the links' memo is of no use to the search index, which needs the memory
    for name in STATIC_FILES:
        writer.write(f"static/{name}", [_package_dir("static").joinpath(name).read_bytes()])
    for path, text in search_index.site_index(kb, site):
        writer.write(f"{INDEX_DIR}/{path}", [text])
    writer.write("data/entries.json", dump.render_pieces(kb, site))
    return writer.done


def build_files(kb: KnowledgeBase, proof_set: proofs.Proofs | None = None) -> tuple[dict[str, bytes], pages.SiteModel]:
    """All files of the site in memory (path → bytes), for tests that look at the whole; not the export."""
    proof_set = proof_set if proof_set is not None else proofs.collect(kb)
    site = pages.gather(kb, proof_set)
    files = {path: text.encode("utf-8") for path, text in render_pages(site, environment()).items()}
    for name in STATIC_FILES:
        files[f"static/{name}"] = _package_dir("static").joinpath(name).read_bytes()
    for path, text in search_index.site_index(kb, site):
        files[f"{INDEX_DIR}/{path}"] = text.encode("utf-8")
    files["data/entries.json"] = dump.render(kb, site).encode("utf-8")
    return files, site


MARKER = ".kb-export"


class ExportError(Exception):
    """The export cannot be written where asked (the message names the directory)."""


def check_target(out_dir: Path) -> None:
    """Refuse to replace a directory that is not ours: ``kb export site .`` must never wipe a checkout.

    An existing directory is replaced only when it is empty or holds the marker file a previous export left
    (what a killed export left inside it does not count: the next export removes it).
    """
    if out_dir.is_file() or out_dir.is_symlink():
        raise ExportError(t("err.export.not_dir", path=out_dir))
    mine = out_dir.is_dir() and (out_dir / MARKER).is_file()
    if out_dir.is_dir() and not mine and any(not publish.is_ours(child.name) for child in out_dir.iterdir()):
        raise ExportError(t("err.export.not_ours", path=out_dir, marker=MARKER))


MARKER_TEXT = "Written by `kb export`; this directory is replaced on each export.\n"


def export_site(kb: KnowledgeBase, out_dir: Path, proof_set: proofs.Proofs | None = None) -> ExportReport:
    """Export into ``out_dir`` (any path, relative ones and ``.`` included), replacing a previous export."""
    started = time.perf_counter()
    check_target(out_dir)  # fail before the work, not after it
    proof_set = proof_set if proof_set is not None else proofs.collect(kb)
    site = pages.gather(kb, proof_set)
    with publish.publish(out_dir) as staging:
        (staging / MARKER).write_text(MARKER_TEXT)
        written = write_site(staging, kb, site)
    gz = written.gzip_sizes
    return ExportReport(
        out_dir=str(out_dir),
        pages=written.pages,
        files=written.files,
        bytes=written.bytes,
        index_bytes=written.index_bytes,
        index_gzip_bytes=gz[INDEX_FILE],
        home_search_gzip_bytes=sum(gz.values()),
        seconds=round(time.perf_counter() - started, 3),
        verification=proof_set.source,
        coverage=site.coverage,
        warnings=list(proof_set.warnings),
    )
