"""The ``kb`` CLI's messages in Russian (the default) and English, from one catalogue.

Which language: ``kb --lang ru|en`` first; otherwise the first non-empty of ``LC_ALL``, ``LC_MESSAGES``,
``LANG`` (the POSIX order): a value starting with ``en`` means English, anything else (``ru_RU.UTF-8``,
``C.UTF-8``, ``POSIX``) Russian; Russian when none is set. The status and reason labels are the ones the
site export shows (``kb/export/proofs.py``, ``kb/verify.py``); a test keeps them equal.

Standard library only: the CLI imports this before every command, and ``kb search`` cold start counts.
"""

from __future__ import annotations

import os
import re
from typing import Any

LANGUAGES = ("ru", "en")
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")

_override: str | None = None


def set_language(lang: str | None) -> None:
    """Fix the language for this run (``--lang``); ``None`` goes back to the locale."""
    global _override
    _override = lang if lang in LANGUAGES else None


def language() -> str:
    if _override is not None:
        return _override
    for variable in LOCALE_VARIABLES:
        value = os.environ.get(variable)
        if value:
            return "en" if value.lower().startswith("en") else "ru"
    return "ru"


def t(key: str, **values: Any) -> str:
    """The message ``key`` in the current language, formatted with ``values``; an unknown key is a bug."""
    ru, en = MESSAGES[key]
    text = en if language() == "en" else ru
    return text.format(**values) if values else text


def text_of(key_or_text: str | None) -> str | None:
    """Help strings are catalogue keys; anything else (a user's value, ``None``) is returned as it is."""
    if isinstance(key_or_text, str) and key_or_text in MESSAGES:
        return t(key_or_text)
    return key_or_text


def status_label(status: str, short: bool = False) -> str:
    """``verified`` → «проверено»; ``short`` for table headers («не связано»)."""
    key = f"status.{status}.short" if short and f"status.{status}.short" in MESSAGES else f"status.{status}"
    return t(key) if key in MESSAGES else status


def reason_label(reason: str) -> str:
    """Why a ruling is not simulable, from its code in ``data/not_simulable.yaml``."""
    key = f"reason.{reason}"
    return t(key) if key in MESSAGES else reason


def entry_type_label(entry_type: str) -> str:
    """``ruling`` → «разъяснение»; also section kinds (``keyword ability``) and document kinds (``FAQ``)."""
    key = f"type.{entry_type}"
    return t(key) if key in MESSAGES else entry_type


# click's own usage errors are English; in Russian they are rewritten by these patterns, in this order.
_CLICK_RU: tuple[tuple[str, str], ...] = (
    (r"Missing argument '([^']+)'\.", r"Не указан аргумент '\1'."),
    (r"Missing option '([^']+)'\.", r"Не указан параметр '\1'."),
    (r"Missing parameter: (\S+)", r"Не указан параметр \1"),
    (r"Missing command\.", "Не указана команда."),
    (r"No such option: (\S+)", r"Нет такого параметра: \1"),
    (r"No such command '([^']+)'\.", r"Нет такой команды '\1'."),
    (r"Did you mean (.+)\?", r"Может быть, \1?"),
    (r"\(Possible options: (.+)\)", r"(возможные параметры: \1)"),
    (r"Got unexpected extra arguments? \((.+)\)", r"Лишние аргументы: (\1)"),
    (r"Option '([^']+)' requires an argument\.", r"Параметру '\1' нужно значение."),
    (r"Option '([^']+)' does not take a value\.", r"Параметр '\1' не принимает значения."),
    (r"Invalid value for (.+?): ", r"Недопустимое значение \1: "),
    (r"'([^']*)' is not a valid integer\.", r"'\1' — не целое число."),
    (r"(\S+) is not in the range (\S+)\.", r"\1 вне допустимых пределов \2."),
    (r"'([^']*)' is not one of (.+)\.", r"'\1' — не одно из значений \2."),
    (r"Input should be greater than or equal to (\S+)", r"значение должно быть не меньше \1"),
    (r"Input should be less than or equal to (\S+)", r"значение должно быть не больше \1"),
    (r"Input should be a valid integer(, unable to parse string as an integer)?", "нужно целое число"),
)


def click_message(message: str) -> str:
    """A click usage error in the current language (click writes English)."""
    if language() == "en":
        return message
    for pattern, replacement in _CLICK_RU:
        message = re.sub(pattern, replacement, message)
    return message


# key: (Russian, English). Help texts avoid square brackets: typer reads them as rich markup.
MESSAGES: dict[str, tuple[str, str]] = {
    # typer's help and error frames
    "typer.usage": ("Использование: ", "Usage: "),
    "typer.arguments": ("Аргументы", "Arguments"),
    "typer.options": ("Параметры", "Options"),
    "typer.commands": ("Команды", "Commands"),
    "typer.error": ("Ошибка", "Error"),
    "typer.default": ("[по умолчанию: {}]", "[default: {}]"),
    "typer.required": ("[обязательно]", "[required]"),
    "typer.aborted": ("Прервано.", "Aborted."),
    "typer.try_help": (
        "Справка: [blue]'{command_path} {help_option}'[/]",
        "Try [blue]'{command_path} {help_option}'[/] for help.",
    ),
    # the application and its global options
    "app.help": (
        "База официальных разъяснений Magic: The Gathering: разбор документов, поиск, проверка разъяснений "
        "сценариями в движке правил и экспорт статического сайта.",
        "Magic: The Gathering rulings knowledge base: ingest official documents, search them, verify rulings "
        "with scenarios in the rules engine and export a static site.",
    ),
    "opt.help": ("Показать эту справку и выйти.", "Show this message and exit."),
    "opt.version": ("Показать версию и выйти.", "Show the version and exit."),
    "opt.lang": (
        "Язык интерфейса: ru или en. По умолчанию из LC_ALL, LC_MESSAGES, LANG (en… — английский, иначе русский).",
        "Interface language: ru or en. Default: from LC_ALL, LC_MESSAGES, LANG (en… means English, "
        "anything else Russian).",
    ),
    "opt.json": ("Вывести один документ JSON вместо таблицы.", "Print one JSON document instead of the table."),
    "err.lang": ("язык {value!r} не поддерживается: ru или en", "unsupported language {value!r}: ru or en"),
    "version": ("kb {version}", "kb {version}"),
    # shared
    "err.prefix": ("ошибка", "error"),
    "warn.prefix": ("предупреждение", "warning"),
    "err.no_kb": (
        "базы знаний ещё нет; сначала выполните `kb ingest`",
        "no knowledge base yet; run `kb ingest` first",
    ),
    "err.os": ("{path}: {reason}", "{path}: {reason}"),
    # input limits and faults (issue 14): ingest's keyed messages (ingest/errors.py), search, export
    "err.ingest.empty": ("пустой файл", "empty file"),
    "err.ingest.binary": ("двоичный файл, а не текст или страница HTML", "binary file, not a text or HTML document"),
    "err.ingest.utf16_no_bom": (
        "похоже на UTF-16 без метки порядка байтов (BOM); сохраните файл как UTF-8 или UTF-16 с BOM",
        "looks like UTF-16 without a byte-order mark (BOM); save it as UTF-8, or UTF-16 with a BOM",
    ),
    "err.ingest.bad_bytes": (
        "текст не читается как {encoding} (байт {byte})", "cannot decode text as {encoding} (byte {byte})",
    ),
    "err.ingest.too_large": (
        "документ слишком большой: {size} МиБ при пределе {limit} МиБ (предел меняет KB_MAX_DOCUMENT_BYTES)",
        "document too large: {size} MiB, the limit is {limit} MiB (set KB_MAX_DOCUMENT_BYTES to change it)",
    ),
    "err.ingest.line_too_long": (
        "строка слишком длинная: {length} символов при пределе {limit} (предел меняет KB_MAX_LINE_CHARS)",
        "line too long: {length} characters, the limit is {limit} (set KB_MAX_LINE_CHARS to change it)",
    ),
    "err.ingest.html_no_text": ("в странице HTML нет текста", "HTML page has no text"),
    "err.ingest.same_id": (
        "ID документа {id!r} уже занят другим файлом ({other}); чтобы заменить тот документ этим, "
        "добавьте --replace, или переименуйте файл",
        "document ID {id!r} is already taken by another file ({other}); add --replace to replace that "
        "document with this one, or rename the file",
    ),
    "err.ingest.same_id_here": (
        "ID документа {id!r} получается и у другого файла этой же команды ({other})",
        "document ID {id!r} is also given by another file of this command ({other})",
    ),
    "opt.ingest.replace": (
        "Заменить документ с тем же ID, даже если он был разобран из другого файла.",
        "Replace a document with the same ID even when it came from another file.",
    ),
    "warn.unresolved_official": (
        "{where}: официального разъяснения нет в базе знаний (другая версия MTGJSON?) — сценарий его не доказывает",
        "{where}: the official ruling is not in the knowledge base (another MTGJSON version?) — not proven",
    ),
    "warn.no_rulings": (
        "в документе нет ни одного разъяснения (только заголовки, примечания, правила или карты)",
        "the document has no rulings (only headings, notes, rules or cards)",
    ),
    "warn.html.unclosed": (
        "тег <{tag}> не закрыт; HTML прочитан так, как его прочитал бы браузер",
        "unclosed <{tag}>; HTML read the way a browser reads it",
    ),
    "warn.html.end_tag": (
        "тег </{tag}> не на месте (лишний или закрывает незакрытые теги); HTML прочитан так, как его прочитал "
        "бы браузер",
        "</{tag}> out of place (stray, or closing open tags); HTML read the way a browser reads it",
    ),
    "warn.html.misnested": (
        "теги вокруг <{tag}> вложены неправильно; HTML прочитан так, как его прочитал бы браузер",
        "tags around <{tag}> are misnested; HTML read the way a browser reads it",
    ),
    "warn.html.start_tag": (
        "тег <{tag}> там, где его быть не может: открытый перед ним тег закрыт; HTML прочитан как в браузере",
        "<{tag}> where it cannot be: the tag open before it is closed; HTML read the way a browser reads it",
    ),
    "warn.html.other": (
        "ошибка разметки HTML ({code}); HTML прочитан так, как его прочитал бы браузер",
        "HTML markup error ({code}); HTML read the way a browser reads it",
    ),
    "warn.html.more": ("и ещё исправлений разметки HTML: {count}", "and {count} more HTML repairs"),
    "err.export.not_dir": ("{path}: существует и не является папкой", "{path}: exists and is not a directory"),
    "err.export.not_ours": (
        "{path}: папка не пуста и не является прошлым экспортом (нет файла {marker}); выберите другую папку",
        "{path}: not empty and not a previous export (no {marker}); choose another directory",
    ),
    # the store (kb/db/)
    "store.missing": (
        "{path}: базы знаний ещё нет; выполните `kb ingest`",
        "{path}: no knowledge base yet; run `kb ingest` first",
    ),
    "store.empty": (
        "{path}: база знаний пуста (ни одной записи не сохранено); выполните `kb ingest`",
        "{path}: the knowledge base is empty (nothing was ever stored); run `kb ingest`",
    ),
    "store.cannot_open": (
        "{path}: база знаний не открывается ({error})",
        "{path}: cannot open the knowledge base ({error})",
    ),
    "store.not_sqlite": (
        "{path}: это не база знаний SQLite ({error})",
        "{path}: not a knowledge base SQLite file ({error})",
    ),
    "store.no_meta": (
        "{path}: это не база знаний (нет таблицы meta)",
        "{path}: not a knowledge base (no meta table)",
    ),
    "store.format": (
        "{path}: это не база знаний (format != {format})",
        "{path}: not a knowledge base (format != {format})",
    ),
    "store.schema": (
        "{path}: схема базы знаний {found}, а нужна {wanted}; выполните `kb ingest`",
        "{path}: knowledge base schema {found} is not {wanted}; run `kb ingest`",
    ),
    "store.failed": (
        "{path}: запись в базу знаний не удалась ({error})",
        "{path}: writing the knowledge base failed ({error})",
    ),
    "store.duplicate": ("{where}: запись {id} встречается дважды", "{where}: entry {id} occurs twice"),
    # kb ingest / stats / show
    "cmd.ingest": (
        "Разобрать документы в базу знаний (build/kb.sqlite); изменения записываются одной транзакцией или не "
        "записываются вовсе.",
        "Parse source documents into the knowledge base (build/kb.sqlite), in one transaction.",
    ),
    "arg.ingest.paths": (
        "Документы, которые нужно добавить (текст, Markdown или HTML). По умолчанию все документы из "
        "data/sources.",
        "Documents to add (text, Markdown or HTML). Default: all bundled sources.",
    ),
    "opt.ingest.dry_run": ("Разобрать и показать итог, ничего не сохраняя.", "Parse and report; store nothing."),
    "opt.ingest.quiet": ("Без индикатора хода работы.", "No progress bar."),
    "ingest.progress": ("Разбор документов", "Parsing documents"),
    "ingest.progress_file": ("Разбор: {name}", "Parsing: {name}"),
    "ingest.title": ("Документы", "Documents"),
    "ingest.title_dry_run": ("Документы (--dry-run: ничего не сохранено)", "Documents (--dry-run: nothing stored)"),
    "ingest.written": ("База знаний записана: {path}", "Knowledge base written: {path}"),
    "cmd.stats": (
        "Сколько в базе документов, разделов, карт, правил, разъяснений и примечаний, по документам.",
        "Counts of documents, sections, cards, rules, rulings and notes, per document.",
    ),
    "stats.title": ("База знаний, документов: {count}", "Knowledge base: {count} documents"),
    "col.document": ("документ", "document"),
    "col.sections": ("разделы", "sections"),
    "col.cards": ("карты", "cards"),
    "col.rules": ("правила", "rules"),
    "col.rulings": ("разъяснения", "rulings"),
    "col.notes": ("примечания", "notes"),
    "col.warnings": ("предупр.", "warnings"),
    "col.rulings.short": ("разъясн.", "rulings"),  # the per-document table: 80 columns with IDs of 16
    "col.notes.short": ("примеч.", "notes"),
    "col.total": ("итого", "total"),
    "cmd.show": (
        "Показать запись с контекстом: документ, раздел, карты, правила, перевод, проверка сценариями.",
        "Print an entry with its context: document, section, cards, cited rules, translation, verification.",
    ),
    "arg.show.id": (
        "ID записи (shm/persist/3), номер правила (702.36a) или название карты.",
        "Entry ID (shm/persist/3), rule number (702.36a) or card name.",
    ),
    "err.no_entry": ("нет записи {id!r}", "no entry {id!r}"),
    "err.no_entry.close": ("; может быть, {close}?", "; did you mean {close}?"),
    "err.no_entry.search": ("; попробуйте `kb search`", "; try `kb search`"),
    "show.document": ("Документ", "Document"),
    "show.section": ("Раздел", "Section"),
    "show.source": ("Источник", "Source"),
    "show.cards": ("Карты", "Cards"),
    "show.names": ("Названия", "Names"),
    "show.card_rulings": ("Разъяснения о карте", "Rulings about the card"),
    "show.entries": ("Записи", "Entries"),
    "show.check": ("Проверка", "Verification"),
    "show.reason": ("причина", "reason"),
    "show.details": ("подробности: kb verify {id}", "details: kb verify {id}"),
    "show.rule": ("Правило {number}", "Rule {number}"),
    "show.rule_missing": ("нет в базе", "not in the knowledge base"),
    "show.translation": ("Перевод", "Translation"),
    "show.original_en": ("Английский оригинал", "English original"),
    "show.translation_ru": ("Русский перевод", "Russian translation"),
    "show.discrepancies": ("Расхождения перевода", "Translation discrepancies"),
    "show.unaligned": ("Нет пары на другом языке", "No counterpart in the other language"),
    "verify.shared": ("вердикт и доказательство — общие с русским оригиналом {id}",
                      "verdict and proof shared with its Russian twin {id}"),
    "align.section_absent": ("раздела нет в документе на другом языке",
                             "the section is absent from the other document"),
    "align.not_in_other": ("раздел на другом языке этого не говорит",
                           "the section in the other language does not say it"),
    "disc.number": ("число", "number"),
    "disc.mana": ("мана", "mana"),
    "disc.rule": ("правило", "rule"),
    "disc.card": ("карта", "card"),
    "align.card_absent": ("карты нет в документе на другом языке", "the card is absent from the other document"),
    "align.rule_absent": ("документ на другом языке не цитирует это правило",
                          "the other document does not quote this rule"),
    "stats.alignment_title": ("Русские документы и английские оригиналы", "Russian documents and English originals"),
    "col.aligned": ("в паре", "aligned"),
    "col.unaligned": ("без пары", "unaligned"),
    "col.discrepancies": ("расхождения", "discrepancies"),
    "type.document": ("документ", "document"),
    "type.section": ("раздел", "section"),
    "type.card": ("карта", "card"),
    "type.rule": ("правило", "rule"),
    "type.cr_version": ("версия Комплексных правил", "Comprehensive Rules version"),
    "type.cr_rule": ("правило Комплексных правил", "Comprehensive Rules rule"),
    "type.cr_glossary": ("термин глоссария Комплексных правил", "Comprehensive Rules glossary term"),
    "type.ruling": ("разъяснение", "ruling"),
    "type.note": ("примечание", "note"),
    "type.release info": ("сведения о выпуске", "release info"),
    "type.keyword ability": ("способность с ключевым словом", "keyword ability"),
    "type.keyword action": ("действие с ключевым словом", "keyword action"),
    "type.ability word": ("слово способности", "ability word"),
    "type.card type": ("тип карты", "card type"),
    "type.theme": ("тема", "theme"),
    "type.cycle": ("цикл", "cycle"),
    "type.card notes": ("примечания к картам", "card notes"),
    "type.release notes": ("заметки к выпуску", "release notes"),
    "type.FAQ": ("часто задаваемые вопросы", "FAQ"),
    # kb search / index
    "cmd.search": (
        "Искать разъяснения, примечания, правила и карты: русская морфология, глоссарий RU↔EN, опечатки.",
        "Search rulings, notes, rules and cards (Russian morphology, RU↔EN glossary, typo tolerance).",
    ),
    "arg.search.query": (
        'Вопрос или ключевые слова, по-русски или по-английски. "фраза", AND, OR, NOT / -слово, +слово, '
        "префикс*.",
        'Question or keywords, Russian or English. "phrase", AND, OR, NOT / -word, +word, prefix*.',
    ),
    "opt.search.set": ("Только этот выпуск: код (LRW), ID (lrw) или название.", "Only this set: code (LRW), id "
                       "(lrw) or name."),
    "opt.search.card": (
        "Только записи об этой карте (русское или английское название).",
        "Only entries about this card (Russian or English name).",
    ),
    "opt.search.mechanic": ("Только записи из разделов этой механики.", "Only entries of this mechanic's sections."),
    "opt.search.kind": (
        "Вид записей: ruling (разъяснение), note (примечание), rule (правило), card (карта).",
        "Kind of entries: ruling | note | rule | card.",
    ),
    "opt.search.lang": (
        "Только записи на этом языке: ru или en (язык интерфейса задаёт kb --lang).",
        "Only entries in this language: ru | en (the interface language is kb --lang).",
    ),
    "opt.search.current": ("Только то, что доказано и действует по сегодняшним правилам (актуально или устарели "
                           "лишь термины).", "Only what is proven to hold under today's rules (current, or old terms "
                           "only)."),
    "opt.search.limit": ("Сколько результатов показать.", "How many results to show."),
    "search.index_built": (
        "индекс построен: записей {count}, за {seconds:.2f} с",
        "index built: {count} entries in {seconds:.2f} s",
    ),
    "search.instead": ("искали «{suggestion}» вместо «{word}»", "searched for «{suggestion}» instead of «{word}»"),
    "search.nothing": ("По запросу «{query}» ничего не найдено.", "Nothing found for «{query}»."),
    "search.nothing_hint": (
        "Попробуйте меньше слов, другую форму слова или термин на другом языке (русский / английский).",
        "Try fewer words, another form, or the English/Russian term.",
    ),
    "search.nothing_relevant": (
        "По запросу «{query}» ничего относящегося к делу не найдено (слабых совпадений: {weak}): похоже, в базе "
        "нет записей на эту тему.",
        "Nothing relevant found for «{query}» ({weak} weak matches): the knowledge base seems not to cover it.",
    ),
    "search.nothing_relevant_hint": (
        "Если тема есть в базе, назовите механику или карту точнее, или найдите точное слово: \"фраза\", слово*.",
        "If the topic is covered, name the mechanic or card more exactly, or ask for exact words: \"phrase\", word*.",
    ),
    "search.found": (
        "По запросу «{query}» найдено: {total}, показано: {shown}:",
        "{total} found for «{query}», showing {shown}:",
    ),
    "search.found_at_least": (
        "По запросу «{query}» найдено не меньше {total}, показано: {shown}:",
        "At least {total} found for «{query}», showing {shown}:",
    ),
    "search.score": ("оценка {score:.2f}", "score {score:.2f}"),
    "search.query_cut": (
        "запрос длиннее {limit} символов: искали только его начало ({used} из {length})",
        "the query is longer than {limit} characters: searched its beginning only ({used} of {length})",
    ),
    "search.full_entry": ("Запись целиком: kb show {id}", "Full entry: kb show {id}"),
    "cmd.index": (
        "Построить индекс поиска, если его нет или он устарел (--rebuild — в любом случае), и показать его.",
        "Build the search index if it is missing or stale (--rebuild forces it) and report on it.",
    ),
    "opt.index.rebuild": ("Перестроить, даже если ничего не изменилось.", "Rebuild even if nothing changed."),
    "opt.index.backend": (
        "Движок поиска: whoosh (по умолчанию) или tantivy (быстрый, pip install -e '.[tantivy]'); выбор "
        "сохраняется для следующих перестроений (или KB_SEARCH_BACKEND).",
        "Search backend: whoosh (the default) or tantivy (fast, pip install -e '.[tantivy]'); the choice is kept "
        "for later rebuilds (or KB_SEARCH_BACKEND).",
    ),
    "index.built": (
        "индекс построен за {seconds:.2f} с: записей {count}, {kib:.0f} КиБ",
        "index built in {seconds:.2f} s: {count} entries, {kib:.0f} KiB",
    ),
    "index.current": ("индекс актуален: записей {count}, {kib:.0f} КиБ", "index up to date: {count} entries, "
                      "{kib:.0f} KiB"),
    "err.sources_stale": (
        "исходные документы изменились, но разобрать их заново не удалось: {error}",
        "sources changed but cannot be re-ingested: {error}",
    ),
    "search.reingested": (
        "исходные документы изменились, разобраны заново: {ids}",
        "sources changed: re-ingested {ids}",
    ),
    # kb verify / coverage
    "cmd.verify": (
        "Разыграть сценарии, связанные с разъяснениями, и показать вердикт с журналом партии "
        "(код выхода 1, если хоть одно не проходит).",
        "Play the scenarios linked to rulings and print the verdict with the game log (exit 1 on any failure).",
    ),
    "arg.verify.ids": ("ID разъяснений для проверки.", "Ruling IDs to verify."),
    "opt.verify.all": ("Проверить все разъяснения, у которых есть сценарии.", "Verify every ruling that has "
                       "scenarios."),
    "opt.verify.scenario": (
        "Разыграть файлы сценариев откуда угодно (не связанные с разъяснениями); за первым путём могут "
        "следовать другие.",
        "Run scenario files from anywhere (not linked to any ruling); more paths may follow it.",
    ),
    "opt.verify.log": (
        "Показывать журнал партии и для пройденных сценариев.",
        "Print the game log of passing scenarios too.",
    ),
    "opt.verify.second_opinion": (
        "Второе мнение: разыграть каждый сценарий и в независимом движке phase.rs и сравнить итоговые факты "
        "(нужен pip install -e '.[oracle]').",
        "A second opinion: replay each scenario in the independent phase.rs engine too and compare the final facts "
        "(needs pip install -e '.[oracle]').",
    ),
    "err.no_oracle": (
        "второе мнение: движок phase.rs не установлен; установите его: pip install -e '.[oracle]'",
        "second opinion: the phase.rs engine is not installed; install it: pip install -e '.[oracle]'",
    ),
    "opinion.title": ("Второе мнение (движок phase.rs, сегодняшние правила):",
                      "Second opinion (the phase.rs engine, today's rules):"),
    "opinion.agrees": ("СОГЛАСЕН", "AGREES"),
    "opinion.disagrees": ("НЕ СОГЛАСЕН", "DISAGREES"),
    "opinion.not_comparable": ("НЕСРАВНИМО", "NOT COMPARABLE"),
    "opinion.line": ("{status} {scenario} — сравнено фактов: {compared} ({ms} мс)",
                     "{status} {scenario} — facts compared: {compared} ({ms} ms)"),
    "opinion.diff": ("{fact}: у нас {ours}, в phase.rs {theirs}", "{fact}: ours {ours}, phase.rs {theirs}"),
    "opinion.summary": (
        "Второе мнение: сценариев {scenarios}; согласен — {agrees}, не согласен — {disagrees}, "
        "несравнимо — {not_comparable}{reasons}",
        "Second opinion: {scenarios} scenarios; {agrees} agree, {disagrees} disagree, "
        "{not_comparable} not comparable{reasons}",
    ),
    "opinion.reason.old_rules": ("правила, которых нет в phase.rs", "rules phase.rs does not model"),
    "opinion.reason.card_unparsed": ("phase.rs не разбирает текст карты", "phase.rs cannot parse a card's text"),
    "opinion.reason.decision": ("решение, которое спрашивает только один из движков",
                                "a decision only one of the engines asks for"),
    "opinion.reason.action": ("действие или позиция без соответствия в phase.rs",
                              "an action or position without a counterpart in phase.rs"),
    "opinion.reason.ours_incomplete": ("наш сценарий не доигран", "our scenario did not play to its end"),
    "opinion.reason.phase_error": ("phase.rs отказался продолжать", "phase.rs would not go on"),
    "opinion.fact.zone": ("зона", "zone"),
    "opinion.fact.life": ("жизнь", "life"),
    "opinion.fact.counters": ("жетоны", "counters"),
    "opinion.fact.pt": ("сила/выносливость", "power/toughness"),
    "opinion.fact.loyalty": ("верность", "loyalty"),
    "opinion.fact.controller": ("контролер", "controller"),
    "opinion.fact.tapped": ("повернут", "tapped"),
    "opinion.fact.winner": ("победитель", "winner"),
    "err.no_scenario_file": ("нет такого файла сценария: {paths}", "no such scenario file: {paths}"),
    "err.verify_what": ("укажите ID разъяснений, --all или --scenario ПУТЬ", "give ruling IDs, --all or "
                        "--scenario PATH"),
    "err.unknown_ids": ("неизвестные ID разъяснений: {ids}", "unknown ruling id(s): {ids}"),
    "verify.passed": ("ПРОЙДЕН", "PASS"),
    "verify.failed": ("НЕ ПРОЙДЕН", "FAIL"),
    "verify.era": ("(правила на {date})", "(rules of {date})"),
    "show.today": ("Сегодня", "Today"),
    "coverage.confirmed": ("Подтверждено двумя движками (наш и phase.rs): {confirmed} из {verified} проверенных "
                           "разъяснений ({share} %)", "Confirmed by both engines (ours and phase.rs): {confirmed} of "
                           "{verified} verified rulings ({share} %)"),
    "coverage.no_second_opinion": ("Второе мнение (phase.rs) не установлено: pip install -e '.[oracle]'",
                                   "No second opinion (phase.rs) installed: pip install -e '.[oracle]'"),
    "coverage.currency_title": ("Действуют ли разъяснения сегодня (по сегодняшним правилам)",
                                "Do the rulings still hold (under today's rules)"),
    "currency.current": ("актуально", "current"),
    "currency.obsolete": ("устарело", "obsolete"),
    "currency.terms": ("термины устарели", "old terms"),
    "currency.unjudged": ("не оценено", "not judged"),
    "show.today_run": ("по сегодняшним правилам", "under today's rules"),
    "show.rules_now": ("правило сегодня: {rules}", "today's rule: {rules}"),
    "verify.cards": ("Карты этого доказательства:", "Cards of this proof:"),
    "verify.log": ("Журнал партии:", "Game log:"),
    "verify.checked": ("Проверено (ожидалось / на деле):", "Checked (expected / actual):"),
    "verify.check": ("{what}: ожидалось {expected}, на деле {actual}", "{what}: expected {expected}, actual {actual}"),
    "verify.error": ("ошибка:", "error:"),
    "verify.today": ("сегодня: {label}", "today: {label}"),
    "verify.summary": (
        "Итого записей: {count} ({parts}); сценариев пройдено: {passed} из {runs}",
        "{count} entries checked: {parts}; scenarios passing {passed} of {runs}",
    ),
    "verify.summary_part": ("{label} — {count}", "{count} {label}"),
    "cmd.coverage": (
        "Сколько разъяснений каждого документа проверено, не проходит, не связано со сценарием "
        "или не моделируется.",
        "How many rulings per document are verified, failing, not linked to a scenario, or not simulable.",
    ),
    "coverage.title": ("Покрытие разъяснений сценариями", "Rulings covered by scenarios"),
    "status.verified": ("проверено", "verified"),
    "status.failing": ("не проходит", "failing"),
    "status.unlinked": ("не связано со сценарием", "not linked to a scenario"),
    "status.unlinked.short": ("не связано", "not linked"),
    "status.not_simulable": ("не моделируется", "not simulable"),
    "status.passed": ("пройден", "passed"),
    "status.not_passed": ("не пройден", "failed"),
    "reason.release_info": ("сведения о выпуске, датах, турнирах", "release, dates and tournament information"),
    "reason.physical_presentation": (
        "внешний вид карт, рамки, раскладка на столе",
        "how cards look: frames, layout on the table",
    ),
    "reason.definition_only": (
        "определение без игровой ситуации, которую можно разыграть",
        "a definition without a game situation to play out",
    ),
    "reason.multiplayer_only": (
        "касается только игры с тремя и более игроками",
        "only about games with three or more players",
    ),
    "reason.out_of_engine_scope": ("механика вне словаря движка", "a mechanic outside the engine's vocabulary"),
    # kb export
    "cmd.export": (
        "Экспорт базы знаний: статический сайт разъяснений, работающий без сети, или JSON со всеми записями.",
        "Export the knowledge base: a static offline FAQ site, or a JSON dump of all entries.",
    ),
    "arg.export.out_dir": (
        "Каталог, который будет (пере)создан; заменяется целиком, только если экспорт удался.",
        "Directory to (re)create; replaced atomically when the export succeeds.",
    ),
    "cmd.export.site": (
        "Записать статический сайт разъяснений (OUT_DIR/index.html открывается в браузере, также из file://).",
        "Write the static FAQ site (open OUT_DIR/index.html in a browser, also from file://).",
    ),
    "cmd.export.json": (
        "Записать OUT_DIR/entries.json: все записи с адресом страницы и, для разъяснений, вердиктом проверки.",
        "Write OUT_DIR/entries.json: every entry with its page URL and, for rulings, the verification verdict.",
    ),
    "export.site": (
        "{out}: страниц {pages}, файлов {files}, {size}, за {seconds:.2f} с",
        "{out}: {pages} pages, {files} files, {size} in {seconds:.2f} s",
    ),
    "export.index": (
        "индекс поиска {size} ({gzip} в gzip); главная и поиск {home} в gzip",
        "search index {size} ({gzip} gzip); home + search {home} gzip",
    ),
    "export.rulings": ("разъяснения: {parts} (проверка: {source})", "rulings: {parts} (verification: {source})"),
    "export.source.kb.verify": ("сценарии в движке правил", "scenarios in the rules engine"),
    "export.source.none": ("не выполнялась", "not run"),
    "export.json": ("{path}: записей {count}", "{path}: {count} entries"),
    "unit.kib": ("{value:.1f} КиБ", "{value:.1f} KiB"),
}


def localized(problem: Any) -> str:
    """An ``IngestError`` or ``IngestWarning`` in the interface language: ``file:line: text``.

    Ingest never imports ``kb``; a message it wants translated carries a catalogue ``key`` and ``values``.
    Messages without one are shown as ingest wrote them.
    """
    key = getattr(problem, "key", None)
    if not key or key not in MESSAGES:
        return str(problem)
    line = getattr(problem, "line", None)
    path = getattr(problem, "path", "")
    where = f"{path}:{line}" if line else path
    return f"{where}: {t(key, **getattr(problem, 'values', {}))}"
