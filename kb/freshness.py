"""Keep the knowledge base in step with the bundled sources, cheaply enough to run before every search.

A modification-time check comes first and costs a few ``stat`` calls; the parser is imported and the
sources hashed only when one of them looks newer than the knowledge base.
"""

from __future__ import annotations

import os

from kb import paths


def refresh_if_stale() -> list[str]:
    """Re-ingest the bundled sources edited since the last build; return the IDs of those that changed.

    Raises ``IngestError`` for a bad source, leaving the stored knowledge base as it was.
    """
    kb_file = paths.kb_path()
    directory = paths.sources_dir()
    if not directory.exists() or not _stored(kb_file):
        return []
    built = kb_file.stat().st_mtime_ns
    if all(p.stat().st_mtime_ns <= built for p in directory.iterdir() if p.is_file()):
        return []

    from kb import build, store

    kb = store.load(kb_file)
    changed = build.stale_sources(kb, directory)
    if not changed:
        os.utime(kb_file)  # contents equal: remember that, so the next check is cheap again
        return []
    sources = build.bundled_sources(directory)
    parsed = build.parse_sources(sources)  # all of them: rulings link to cards across documents
    labels = {source.label for source in sources}
    with store.transaction(kb_file) as tx:  # merged into what is stored now, under the write lock
        kb = tx.existing() or kb
        only_bundled = all(doc.source.path in labels for doc in kb.documents)
        rebuilt = build.build(parsed) if only_bundled else build.merge(kb, parsed)
        tx.save(build.with_rules(rebuilt, kept=kb))  # the ingested CR versions stay, excerpts re-linked
    changed_labels = {source.label for source in changed}
    return [doc.document.id for doc in parsed if doc.document.source.path in changed_labels]


def _stored(kb_file: os.PathLike[str]) -> bool:
    from pathlib import Path

    if Path(kb_file).exists():  # what ``store.exists`` answers then too, without importing the store
        return True
    from kb import store

    return store.exists(Path(kb_file))
