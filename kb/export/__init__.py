"""Static FAQ export: an offline site (``site.py``) and a JSON dump (``dump.py``) of the knowledge base.

Gather, then render: ``pages.py`` turns the knowledge base into page models, ``search_index.py`` builds
the in-browser search index, templates render them, and ``site.py`` writes everything into a fresh
temporary directory that is swapped in only when the whole export succeeded.
"""
