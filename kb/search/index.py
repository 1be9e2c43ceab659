"""Index lifecycle: fingerprint, build on first search, rebuild on change, atomic generation swap.

Layout under ``kb.paths.index_dir()``::

    CURRENT                 JSON pointer: {"generation", "fingerprint", "inputs", ...}, replaced atomically
    gen-<fp>-<nonce>/       one complete index (engine files + glossary.json + vocabulary.json + meta.json)
    .lock                   serialises builders (readers never take it)

A rebuild writes a new ``gen-*`` directory beside the live one and only then rewrites ``CURRENT``, so
a search that resolved the pointer keeps reading a complete index; the previous generation is kept
(one back) so a reader that resolved it a moment before the swap can still open it.

The fingerprint covers the knowledge base's stored content (its digest), the glossary files, the analyzer
version and the index format. A cheap check of file sizes and mtimes skips hashing when nothing was touched, which keeps
``kb search`` start-up fast.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import secrets
import shutil
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb import faults, paths
from kb.atomic import write_text_atomic
from kb.search.analysis import ANALYZER_VERSION, vocabulary_of
from kb.search.engine import DEFAULT_ENGINE, ENGINE_FORMATS, ENGINES, EngineUnavailable, get_engine
from kb.search.glossary import GLOSSARY_FILES

if TYPE_CHECKING:
    from kb.search.documents import IndexDoc

INDEX_FORMAT = "kb-search-9"  # 7: the stored analysis by term (``highlight.encode``); 8: no container topics;
# 9: English words in the stored vocabulary
POINTER = "CURRENT"


class IndexError_(Exception):
    """The index cannot be built or opened (the message says why and what to run)."""


@dataclass
class IndexState:
    directory: Path  # the live generation
    fingerprint: str
    built: bool  # built by this call
    seconds: float  # build time when built, else 0
    doc_count: int
    meta: dict[str, Any]


def _inputs() -> list[Path]:
    kb = paths.kb_path()  # with its WAL: a commit not yet folded into the main file changes that one
    return [kb, kb.with_name(kb.name + "-wal"), *(paths.glossary_dir() / name for name in GLOSSARY_FILES)]


def _stats(files: list[Path]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for path in files:
        try:
            st = path.stat()
        except FileNotFoundError:
            continue
        out[str(path)] = [st.st_size, st.st_mtime_ns]
    return out


def code_version(engine_name: str = DEFAULT_ENGINE) -> str:
    """What this version of the code writes: an index of another one is rebuilt, even from unchanged inputs."""
    return f"{INDEX_FORMAT}|{ANALYZER_VERSION}|{engine_name}{ENGINE_FORMATS.get(engine_name, '')}"


def fingerprint(engine_name: str = DEFAULT_ENGINE) -> str:
    """Hash of everything the index is derived from."""
    digest = hashlib.sha256(code_version(engine_name).encode())
    from kb import store

    digest.update(store.digest(paths.kb_path()).encode())  # the stored content, not the database's bytes
    for path in _inputs()[2:]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes() if path.exists() else b"<missing>")
    return digest.hexdigest()


def read_pointer(root: Path | None = None) -> dict[str, Any] | None:
    root = root or paths.index_dir()
    try:
        data = json.loads((root / POINTER).read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return None
    if not isinstance(data, dict) or not (root / str(data.get("generation", ""))).is_dir():
        return None
    return data


@contextmanager
def _build_lock(root: Path) -> Iterator[None]:
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _state(root: Path, pointer: dict[str, Any], built: bool = False, seconds: float = 0.0) -> IndexState:
    directory = root / pointer["generation"]
    meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
    return IndexState(directory, pointer["fingerprint"], built, seconds, int(meta.get("doc_count", 0)), meta)


BACKEND_VARIABLE = "KB_SEARCH_BACKEND"


def chosen_backend(asked: str | None = None, pointer: dict[str, Any] | None = None) -> str:
    """The search backend: the one asked for (``kb index --backend``), else ``$KB_SEARCH_BACKEND``, else
    the one the live index was built with (a choice is kept across rebuilds), else whoosh."""
    name = asked or os.environ.get(BACKEND_VARIABLE) or (pointer or {}).get("engine") or DEFAULT_ENGINE
    if name not in ENGINES:
        raise IndexError_(f"unknown search backend {name!r}; use one of {', '.join(ENGINES)}")
    return str(name)


def ensure_index(rebuild: bool = False, backend: str | None = None) -> IndexState:
    """The live index, built or rebuilt first when missing, stale, of another backend than the one chosen,
    or ``rebuild`` is asked for."""
    root = paths.index_dir()
    pointer = read_pointer(root)
    engine = chosen_backend(backend, pointer)
    fresh = not rebuild and pointer is not None and pointer.get("engine", DEFAULT_ENGINE) == engine
    code = code_version(engine)
    if fresh and pointer is not None and pointer.get("inputs") == _stats(_inputs()) and pointer.get("code") == code:
        return _state(root, pointer)  # the knowledge base is there: its size and mtime are among the inputs
    from kb import store

    if not store.exists(paths.kb_path()):
        raise IndexError_(f"{paths.kb_path()}: no knowledge base yet; run `kb ingest` first")
    if fresh and pointer is not None and pointer.get("fingerprint") == fingerprint(engine):
        pointer.update(inputs=_stats(_inputs()), code=code)
        write_text_atomic(root / POINTER, json.dumps(pointer, ensure_ascii=False))
        return _state(root, pointer)
    with _build_lock(root):
        pointer = read_pointer(root)
        current = fingerprint(engine)
        if not rebuild and pointer is not None and pointer.get("fingerprint") == current:
            return _state(root, pointer)  # another process built it while we waited
        return _build(root, current, engine)


def _build(root: Path, current: str, engine: str = DEFAULT_ENGINE) -> IndexState:
    from kb.search import glossary as glossary_mod
    from kb.search.documents import index_documents
    from kb.store import KnowledgeBaseError, load

    started = time.perf_counter()
    inputs = _stats(_inputs())
    try:
        kb = load(paths.kb_path())
    except KnowledgeBaseError as exc:
        raise IndexError_(str(exc)) from exc
    gloss = glossary_mod.load(paths.glossary_dir())
    pairs = glossary_mod.card_name_pairs(paths.glossary_dir())
    mechanic_names = _mechanic_names(paths.glossary_dir())
    name = f"gen-{current[:12]}-{secrets.token_hex(3)}"
    staging = root / f".{name}.tmp"
    for stale in root.glob(".gen-*.tmp"):  # left by a build that was killed (builders hold the lock)
        shutil.rmtree(stale, ignore_errors=True)
    try:
        texts: list[str] = [t.text for terms in gloss.concepts.values() for t in terms]
        try:
            backend = get_engine(engine)
        except EngineUnavailable as exc:
            raise IndexError_(f"search backend {exc} is not installed; run: pip install -e '.[tantivy]'") from exc
        count = backend.build(_recording(index_documents(kb, pairs, mechanic_names), texts), staging)
        (staging / "glossary.json").write_text(gloss.to_json(), encoding="utf-8")
        write_vocabulary(staging, vocabulary_of(texts))
        meta = {
            "engine": engine,
            "format": INDEX_FORMAT,
            "analyzer": ANALYZER_VERSION,
            "fingerprint": current,
            "kb_fingerprint": kb.fingerprint,
            "doc_count": count,
            "documents": {
                d.id: {"set_code": d.set_code, "title": d.title, "ru": d.set_name_ru, "en": d.set_name_en}
                for d in kb.documents
            },
        }
        (staging / "meta.json").write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
        faults.point("index.build")
        os.replace(staging, root / name)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    pointer = {"generation": name, "fingerprint": current, "inputs": inputs, "engine": engine,
               "code": code_version(engine)}
    previous = read_pointer(root)
    write_text_atomic(root / POINTER, json.dumps(pointer, ensure_ascii=False))
    keep = {name, previous["generation"] if previous else ""}
    for old in root.glob("gen-*"):
        if old.name not in keep:
            shutil.rmtree(old, ignore_errors=True)
    return _state(root, pointer, built=True, seconds=time.perf_counter() - started)


def _recording(docs: Iterable[IndexDoc], texts: list[str]) -> Iterator[IndexDoc]:
    """Pass the documents through, keeping their searchable texts for the stored vocabulary."""
    for doc in docs:
        texts.extend((doc.text, doc.topic, doc.cards))
        yield doc


VOCABULARY = "vocabulary.json"


def write_vocabulary(directory: Path, vocabulary: dict[str, tuple[str, ...]]) -> None:
    """Word form → normal forms, one line of JSON; a word that is its own only normal form is stored as 0."""
    compact = {w: (0 if lem == (w,) else list(lem)) for w, lem in vocabulary.items()}
    (directory / VOCABULARY).write_text(json.dumps(compact, ensure_ascii=False, separators=(",", ":")), "utf-8")


def read_vocabulary(directory: Path) -> dict[str, tuple[str, ...]]:
    """The stored vocabulary (empty for an index built without one: pymorphy3 then answers every word)."""
    try:
        raw = json.loads((directory / VOCABULARY).read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError):
        return {}
    return {w: ((w,) if lem == 0 else tuple(lem)) for w, lem in raw.items()}


def _mechanic_names(directory: Path) -> dict[str, str]:
    """Mechanic name (folded) → its name in the other language, from mechanics.csv and terms.csv."""
    import csv

    out: dict[str, str] = {}
    path = directory / "mechanics.csv"
    if path.exists():
        with path.open(encoding="utf-8", newline="") as handle:
            for row in csv.DictReader(line for line in handle if not line.startswith("#")):
                ru, en = (row.get("ru") or "").strip(), (row.get("en") or "").strip()
                if ru and en:
                    out.setdefault(ru.lower(), en)
                    out.setdefault(en.lower(), ru)
    return out


def index_size(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())
