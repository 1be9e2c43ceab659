"""Turn WotC release notes and FAQs (text, Markdown or HTML; Russian or English) into entries.

``ingest`` knows nothing of search, verification or the rules engine: it reads documents and returns
``ingest.entries`` objects. Entry point: ``ingest.pipeline.parse_path``.
"""
