"""One module per group of ``kb`` commands; each registers itself on ``kb.cli_app.app``."""
