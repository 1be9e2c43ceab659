"""Bytes to text without silent mis-decoding: a BOM's encoding, else UTF-8, else one legacy code page.

A byte-order mark decides: UTF-8, UTF-16 (LE/BE, as Windows Notepad saves «Юникод») or UTF-32. Without one,
UTF-8; documents are Russian, so their legacy code page is CP1251 (accepted only when the result reads as
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


# Longest first: the UTF-32-LE mark begins with the UTF-16-LE one.
BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def bom_encoding(data: bytes) -> tuple[str, int] | None:
    """The encoding a byte-order mark announces and the mark's length, or None without one."""
    for mark, encoding in BOMS:
        if data.startswith(mark):
            return encoding, len(mark)
    return None


def decode(data: bytes, path: str, legacy: str = "cp1251") -> tuple[str, str]:
    """Return ``(text, encoding)``; raise ``IngestError`` naming ``path`` when it cannot be trusted.

    ``legacy`` is the code page tried when the bytes are not UTF-8: "cp1251" or "cp1252". The encoding
    returned for a file with a BOM is ``utf-8-sig`` or the UTF-16/32 one with its byte order (the mark is
    not part of the text).
    """
    if (marked := bom_encoding(data)) is not None:
        encoding, size = marked
        text = _strict(data[size:], encoding, path)
        if not text.strip(" \t\n\r\x0b\x0c"):  # the same white space as ``bytes.strip`` below
            raise IngestError(path, "empty file", key="err.ingest.empty")
        if _looks_binary_text(text):
            raise IngestError(path, "binary file, not a text or HTML document", key="err.ingest.binary")
        return text, "utf-8-sig" if encoding == "utf-8" else encoding
    if not data.strip():
        raise IngestError(path, "empty file", key="err.ingest.empty")
    if _looks_utf16_without_bom(data):
        raise IngestError(path, "looks like UTF-16 without a byte-order mark", key="err.ingest.utf16_no_bom")
    if looks_binary(data):
        raise IngestError(path, "binary file, not a text or HTML document", key="err.ingest.binary")
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


def _looks_binary_text(text: str) -> bool:
    """The decoded counterpart of ``looks_binary``: NUL or many control characters."""
    sample = text[:8192]
    if "\x00" in sample:
        return True
    controls = sum(1 for ch in sample if ord(ch) < 32 and ch not in "\t\n\r")
    return bool(sample) and controls / len(sample) > 0.05


def _looks_utf16_without_bom(data: bytes) -> bool:
    """Text saved as UTF-16 without its mark: NUL in every other byte (ASCII) or 0x04 (Cyrillic) pairs."""
    sample = data[:4096]
    if len(sample) < 16 or b"\x00" not in sample:
        return False
    even, odd = sample[0::2], sample[1::2]

    def text_like(high: bytes, low: bytes) -> bool:  # high bytes 0 (ASCII) or 4 (Cyrillic), low bytes not NUL
        return sum(1 for b in high if b in (0, 4)) >= 0.9 * len(high) and low.count(0) <= 0.1 * len(low)

    # little-endian keeps the high byte at odd offsets, big-endian at even ones
    return text_like(odd, even) or text_like(even, odd)


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
        line = _line_of(data, exc.start) if encoding == "utf-8" else None
        raise IngestError(
            path, f"cannot decode text as {encoding} (byte 0x{data[exc.start]:02x})", line,
            key="err.ingest.bad_bytes", values={"encoding": encoding.upper(), "byte": f"0x{data[exc.start]:02x}"},
        ) from exc
