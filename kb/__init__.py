"""Knowledge base of Magic: The Gathering rulings: storage, search, verification, export and the CLI."""

__version__ = "0.1.0"
