"""``build/kb.sqlite``: the knowledge base as an SQLite database (schema, writes, reads, ``kb show`` lookups).

``kb.store`` is the interface the commands use; these modules are how it is kept.
"""
