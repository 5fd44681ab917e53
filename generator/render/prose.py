"""Prose a kit prints (its cover's "How to print"), said by the plain-text templates of
``generator/templates/`` from facts the renderer gives, so that the words live apart from the
drawing code and can be translated without touching it.

A prose template writes paragraphs: each starts with a line that begins with ``¶``, and the lines
of a paragraph are joined with one space.  Templates are the project's own, rendered in Jinja's
sandbox without autoescape (the text is drawn, not read as HTML); the facts may hold a game's own
names (decks, sheet templates), which are inserted as text, never evaluated, and come out as
they are: a ``¶`` or a line break inside one neither starts a paragraph nor joins lines.

Each sentence is a ``tr(context, English, comment, name=value ...)`` call
(:func:`deckpress.generator.kit.translation.tr`), so the prose prints in the language being built;
``listed(items, "or")`` joins a list as that language does."""
from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import FileSystemLoader, StrictUndefined
from jinja2.sandbox import ImmutableSandboxedEnvironment

from deckpress.generator.kit.translation import listed, tr
from deckpress.generator.paths import TEMPLATES_DIR

PARAGRAPH = "¶"
#: What a fact's own ``¶`` and line breaks stand for while the template's are read (C0 controls,
#: which YAML does not allow in a document, and which content never holds).
_HIDDEN = {PARAGRAPH: "\x01", "\n": "\x02", "\r": "\x03"}


def _hide(value: Any) -> str:
    text = str(value)
    for mark, stand_in in _HIDDEN.items():
        text = text.replace(mark, stand_in)
    return text


def _shown(text: str) -> str:
    for mark, stand_in in _HIDDEN.items():
        text = text.replace(stand_in, mark)
    return text


@cache
def _environment() -> ImmutableSandboxedEnvironment:
    env = ImmutableSandboxedEnvironment(loader=FileSystemLoader(TEMPLATES_DIR), autoescape=False, trim_blocks=True,
                                        lstrip_blocks=True, undefined=StrictUndefined, finalize=_hide)
    env.globals.update(tr=tr, listed=listed)
    return env


def paragraphs(template: str, **facts: Any) -> list[str]:
    """The paragraphs the prose template ``template`` (a file name in ``generator/templates/``)
    says of ``facts``, in order; a paragraph the template leaves empty is an empty string.

    Raises:
        jinja2.TemplateError: the template is missing or names a fact not given (a bug: the
            templates ship with the package).
    """
    text = _environment().get_template(template).render(**facts)
    chunks = text.split(PARAGRAPH)[1:]  # what comes before the first ¶ is the template's comment
    return [_shown(" ".join(line.strip(" ") for line in chunk.split("\n") if line.strip(" "))) for chunk in chunks]
