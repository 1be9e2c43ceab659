"""Build the knowledge base from source documents: the one place that runs ingest for ``kb``.

The default build reads every document of ``data/sources/`` (manifest order first, then any other
file, by name). Adding documents by path merges them into the stored knowledge base, replacing a
document with the same ID. A path may also be an official Comprehensive Rules file (recognised by its
content): it adds that CR version, replacing the same version. CR versions are never bundled; a
rebuild keeps the versions already ingested, and every build re-links the documents' rule excerpts to
them (``kb.rules_history.link_excerpts``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ingest import bilingual, same_as
from ingest.comprehensive_rules import looks_like_comprehensive_rules, parse_comprehensive_rules
from ingest.entries import IngestWarning, ParsedDocument, ParsedRules
from ingest.errors import IngestError
from ingest.glossary import Glossary, load_glossary
from ingest.manifest import MANIFEST_NAME, load_manifest
from ingest.mentions import CardMentionFinder
from ingest.pipeline import parse_path, with_card_links
from kb import card_data, paths
from kb.i18n import t
from kb.rules_history import link_excerpts
from kb.store import KnowledgeBase, RulesVersionRecord

SOURCE_SUFFIXES = {".txt", ".text", ".md", ".markdown", ".html", ".htm"}
PARSER_VERSION = "2"


@dataclass(frozen=True)
class Source:
    path: Path
    label: str  # how entries and messages name it: relative to the project where possible


def label_for(path: Path) -> str:
    resolved = path.resolve()
    try:
        return str(resolved.relative_to(paths.PROJECT_ROOT))
    except ValueError:
        return str(path)


def bundled_sources(directory: Path | None = None) -> list[Source]:
    directory = directory or paths.sources_dir()
    manifest = load_manifest(directory)
    listed = [directory / name for name in manifest]
    others = sorted(
        p for p in directory.iterdir()
        if p.is_file() and p.suffix.lower() in SOURCE_SUFFIXES and p.name != MANIFEST_NAME and p not in listed
    )
    missing = [p for p in listed if not p.exists()]
    if missing:
        raise IngestError(str(directory / MANIFEST_NAME), f"lists a file that does not exist: {missing[0].name}")
    return [Source(p, label_for(p)) for p in [*listed, *others]]


def parse_sources(
    sources: Sequence[Source],
    glossary: Glossary | None = None,
    on_document: Callable[[Source, ParsedDocument], None] | None = None,
) -> list[ParsedDocument]:
    """Parse each source; raise ``IngestError`` on the first bad one (nothing is stored by this)."""
    glossary = glossary or load_glossary(paths.glossary_dir())
    finder = CardMentionFinder.from_glossary(glossary)
    known_sets = list(load_manifest(paths.sources_dir()).values()) if paths.sources_dir().is_dir() else []
    parsed: list[ParsedDocument] = []
    for source in sources:
        if (documents := card_data.parse_if_card_data(source.path, source.label, finder)) is None:
            manifest = load_manifest(source.path.parent)
            info = manifest.get(source.path.name)
            documents = [parse_path(source.path, info, glossary, source.label, finder, known_sets)]
        for document in documents:
            if (twin := next((d for d in parsed if d.document.id == document.document.id), None)) is not None:
                raise IngestError(
                    source.label, f"document ID {document.document.id!r} is used by another source",
                    key="err.ingest.same_id_here",
                    values={"id": document.document.id, "other": twin.document.source.path},
                )
            document.warnings = [_localized_warning(w) for w in document.warnings]
            parsed.append(document)
            if on_document:
                on_document(source, document)
    with_card_links([d for d in parsed if not card_data.is_card_document(d)])
    return parsed


def _localized_warning(warning: IngestWarning) -> IngestWarning:
    """A keyed warning with its text in the interface language: the knowledge base stores the text."""
    if warning.key is None:
        return warning
    return IngestWarning(warning.path, warning.line, t(warning.key, **warning.values), warning.key, warning.values)


def same_id_conflicts(existing: KnowledgeBase | None, added: Sequence[ParsedDocument]) -> list[IngestError]:
    """Added documents whose ID an ingested document from *another* file already has (two stems alike).

    Re-ingesting the same file (same path) or the same bytes from elsewhere replaces the document as
    before; a different file silently replacing it is what ``kb ingest --replace`` must be asked for.
    """
    if existing is None:
        return []
    stored = {doc.id: doc for doc in existing.documents}
    conflicts = []
    for parsed in added:
        old = stored.get(parsed.document.id)
        new = parsed.document
        if old is None or old.source.path == new.source.path or old.sha256 == new.sha256:
            continue
        conflicts.append(IngestError(
            new.source.path, f"document ID {new.id!r} is already taken by {old.source.path}",
            key="err.ingest.same_id", values={"id": new.id, "other": old.source.path},
        ))
    return conflicts


def split_rules(sources: Sequence[Source]) -> tuple[list[Source], list[Source]]:
    """(documents, Comprehensive Rules files): a CR file is told by its title line, not its name."""
    documents: list[Source] = []
    rules: list[Source] = []
    for source in sources:
        try:
            with source.path.open("rb") as handle:
                head = handle.read(400)
        except OSError as exc:
            raise IngestError(source.label, f"не читается: {exc.strerror}") from exc
        (rules if looks_like_comprehensive_rules(head) else documents).append(source)
    return documents, rules


def parse_rules_sources(sources: Sequence[Source]) -> list[ParsedRules]:
    """Parse each CR file; raise ``IngestError`` on the first bad one (nothing is stored by this)."""
    parsed: list[ParsedRules] = []
    for source in sources:
        rules = parse_comprehensive_rules(source.path.read_bytes(), source.label)
        if any(r.version.version == rules.version.version for r in parsed):
            raise IngestError(source.label, f"версия КП от {rules.version.date} указана дважды")
        parsed.append(rules)
    return parsed


def with_rules(
    kb: KnowledgeBase, added: Sequence[ParsedRules] = (), kept: KnowledgeBase | None = None
) -> KnowledgeBase:
    """``kb`` with the CR versions of ``kept`` and ``added`` (replacing same versions), excerpts re-linked."""
    versions = dict(kept.rules_versions) if kept else dict(kb.rules_versions)
    for rules in added:
        versions[rules.version.version] = RulesVersionRecord.from_parsed(rules)
    kb.rules_versions = versions
    return link_excerpts(kb)


def fingerprint(documents: Iterable[ParsedDocument], glossary_dir: Path | None = None) -> str:
    """Changes when a source, the glossary or the parser changes: what search uses to rebuild its index."""
    digest = hashlib.sha256(f"parser:{PARSER_VERSION}".encode())
    for doc in documents:
        digest.update(f"{doc.document.id}:{doc.document.sha256}".encode())
    directory = glossary_dir or paths.glossary_dir()
    for path in sorted(directory.glob("*.csv")) if directory.exists() else []:
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()


ALIGNMENT_KEYS = ("aligned", "unaligned", "discrepancies")


def with_twins(kb: KnowledgeBase) -> KnowledgeBase:
    """Each Russian document linked to its English original (``ingest.bilingual``); counts in the summaries."""
    entries, alignments = bilingual.link(kb.entries, same_as.load_terms(paths.glossary_dir()))
    summaries = {k: {key: n for key, n in v.items() if key not in ALIGNMENT_KEYS} for k, v in kb.summaries.items()}
    for entry in entries:
        summary = summaries.get(entry.document_id)
        if summary is None or entry.document_id not in {d for a in alignments for d in (a.russian, a.english)}:
            continue
        for key in ALIGNMENT_KEYS:
            summary.setdefault(key, 0)
        summary["aligned"] += bool(getattr(entry, "aligned", None)) and entry.entry_type != "document"
        summary["unaligned"] += bool(getattr(entry, "unaligned", None))
        summary["discrepancies"] += bool(getattr(entry, "discrepancies", ()))
    return KnowledgeBase(entries=entries, fingerprint=kb.fingerprint, summaries=summaries, warnings=kb.warnings,
                         rules_versions=kb.rules_versions)


def build(documents: list[ParsedDocument]) -> KnowledgeBase:
    return with_twins(card_data.finish(KnowledgeBase.from_parsed(documents, fingerprint(documents)), []))


def merge(existing: KnowledgeBase | None, added: list[ParsedDocument]) -> KnowledgeBase:
    """The stored knowledge base with ``added`` documents put in (replacing same-ID documents)."""
    if existing is None:
        return build(added)
    new_ids = {doc.document.id for doc in added}
    kept = KnowledgeBase(
        entries=[e for e in existing.entries if e.document_id not in new_ids or card_data.carried_over(e)],
        summaries={k: v for k, v in existing.summaries.items() if k not in new_ids},
        warnings={k: v for k, v in existing.warnings.items() if k not in new_ids},
    )
    fresh = KnowledgeBase.from_parsed(added)
    digest = hashlib.sha256((existing.fingerprint + fingerprint(added)).encode()).hexdigest()
    merged = KnowledgeBase(
        entries=fresh.entries,
        fingerprint=digest,
        summaries={**kept.summaries, **fresh.summaries},
        warnings={**kept.warnings, **fresh.warnings},
    )
    return with_twins(card_data.finish(merged, kept.entries))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale_sources(kb: KnowledgeBase, directory: Path | None = None) -> list[Source]:
    """Bundled sources that changed, or appeared, since ``kb`` was built (compared by content hash)."""
    stored = {doc.source.path: doc.sha256 for doc in kb.documents}
    return [
        source for source in bundled_sources(directory)
        if stored.get(source.label) != _sha256(source.path)
    ]

