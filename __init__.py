"""deckpress: card content from YAML or CSV to print-and-play PDFs, and rules engines on the same data.

The repository's top-level folders are this package's parts (``pyproject.toml`` maps them):
``deckpress.generator`` (the content layer, layout, rendering, the CLI), ``deckpress.rules`` (one
rules engine per game on a shared core), and the data folders ``content/`` (the shipped games)
and ``schemas/`` (JSON Schema, draft 2020-12), read through :mod:`importlib.resources`.
"""
