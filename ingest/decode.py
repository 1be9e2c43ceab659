"""Bytes to text without silent mis-decoding: UTF-8 (with or without BOM), else one legacy code page.

Documents are Russian, so their legacy code page is CP1251 (accepted only when the result reads as
Cyrillic); the English Comprehensive Rules files fall back to Windows-1252 instead.
"""

from __future__ import annotations

import re

from ingest.errors import IngestError

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CYRILLIC_RE = re.compile(r"[А-Яа-яЁё]")


def looks_binary(data: bytes) -> bool:
    """NUL bytes, or many control bytes, mean this is not a text document."""
    if b"\x00" in data[:8192]:
        return True
    sample = data[:8192]
    controls = sum(1 for byte in sample if byte < 32 and byte not in (9, 10, 13))
    return bool(sample) and controls / len(sample) > 0.05


def decode(data: bytes, path: str, legacy: str = "cp1251") -> tuple[str, str]:
    """Return ``(text, encoding)``; raise ``IngestError`` naming ``path`` when it cannot be trusted.

    ``legacy`` is the code page tried when the bytes are not UTF-8: "cp1251" or "cp1252".
    """
    if not data.strip():
        raise IngestError(path, "empty file")
    if looks_binary(data):
        raise IngestError(path, "binary file, not a text or HTML document")
    if data.startswith(b"\xef\xbb\xbf"):
        return _strict(data[3:], "utf-8", path), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as exc:
        utf8_error = exc
    try:
        text = data.decode(legacy)
    except UnicodeDecodeError:
        text = ""
    if text and (_reads_as_cyrillic(text) if legacy == "cp1251" else not _CONTROL_RE.search(text)):
        return text, legacy
    line = _line_of(data, utf8_error.start)
    raise IngestError(
        path, f"cannot decode text: not UTF-8 (byte 0x{data[utf8_error.start]:02x}) nor {legacy.upper()}", line
    )


def _line_of(data: bytes, offset: int) -> int:
    """1-based line of a byte offset, counting LF, CRLF and lone CR line ends alike."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


_WORD_RE = re.compile(r"[^\W\d_]+")


def _reads_as_cyrillic(text: str) -> bool:
    """CP1251 decodes almost any bytes; accept it only when the result reads as Cyrillic prose.

    Latin-1 text decoded as CP1251 gives words that mix scripts («Cafй»); real Russian text has
    Cyrillic words with at most the odd Latin word beside them, never inside them.
    """
    if _CONTROL_RE.search(text):
        return False
    words = _WORD_RE.findall(text)
    cyrillic = [w for w in words if _CYRILLIC_RE.search(w)]
    if not cyrillic or len(cyrillic) < 0.3 * len(words):
        return False
    mixed = [w for w in cyrillic if re.search(r"[A-Za-z]", w)]
    return len(mixed) <= 0.05 * len(cyrillic)


def _strict(data: bytes, encoding: str, path: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = _line_of(data, exc.start)
        raise IngestError(path, f"cannot decode text as {encoding} (byte 0x{data[exc.start]:02x})", line) from exc
