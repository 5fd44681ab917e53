"""Where deckpress finds its own files: the shipped games' content, the schemas, fonts, icons and
templates, all inside the installed package (read through :mod:`importlib.resources`, so a wheel
installed anywhere finds them exactly as the editable checkout does).

These folders are trusted: they come with deckpress.  Everything a user points deckpress at is
not, and goes through :mod:`deckpress.generator.content.gate`.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

PACKAGE_DIR = Path(str(files("deckpress")))
CONTENT_DIR = PACKAGE_DIR / "content"
SCHEMAS_DIR = PACKAGE_DIR / "schemas"
GENERATOR_DIR = PACKAGE_DIR / "generator"
FONTS_DIR = GENERATOR_DIR / "fonts"
ICONS_DIR = GENERATOR_DIR / "icons"
TEMPLATES_DIR = GENERATOR_DIR / "templates"
#: Whether deckpress runs from its source checkout (an editable install), where the shipped games'
#: folders are the project's own files, rather than from an installed wheel, whose files an upgrade
#: replaces (so no command writes into them).
IN_CHECKOUT = (PACKAGE_DIR / "pyproject.toml").is_file()
