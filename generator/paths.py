"""Where deckpress finds its own files: the repository's content and schemas, packaged fonts."""
from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
REPO_DIR = PACKAGE_DIR.parent
CONTENT_DIR = REPO_DIR / "content"
SCHEMAS_DIR = REPO_DIR / "schemas"
FONTS_DIR = PACKAGE_DIR / "fonts"
