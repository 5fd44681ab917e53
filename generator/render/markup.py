"""Rich text in card data: bold, italic, line breaks, horizontal rules and icon tokens.

A layout's text element says which markup its text is written in (``markup:`` in layout.yaml,
``schemas/layout.schema.json``; the words in docs/rich-text.md):

* ``none`` (the default): the text is printed as it is; a line break in it breaks the line.
* ``html``: the simple tags published card data uses: ``<b>`` and ``<strong>`` (bold), ``<i>`` and
  ``<em>`` (italic), ``<br>`` (a line break), ``<hr>`` (a horizontal rule across the box), and
  HTML's character references (``&amp;``, ``&lt;``, ``&#9733;``).  A line break in the data breaks
  the line as ``<br>`` does (a multi-line spreadsheet cell), but one beside a ``<br>`` or ``<hr>``
  adds nothing.  A ``<`` that opens no tag (``<3``) is text.  Any other tag, a tag with
  attributes, a comment or a declaration is refused, naming it: it is never printed as code nor
  dropped unseen.
* ``markdown``: a subset of CommonMark, read by markdown-it-py: ``**bold**``, ``*italic*`` (or
  ``__``/``_``), ``---`` on a line of its own (a rule), backslash escapes and character references;
  a line break breaks the line and a blank line leaves an empty one.  Everything else (headings,
  lists, links, code, HTML) is printed as written.

Nothing of the text ever reaches reportlab's paragraph markup: the text engine
(:mod:`deckpress.generator.render.text`) draws each run with its font, so a ``<font>`` or
``<img>`` in a card's data is at most text.  Characters a reference produces are held to the
rule for content (:func:`deckpress.generator.content.safetext.refusal`): ``&#27;`` is refused as a raw
ESC is.
"""
from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser
from typing import NamedTuple

from deckpress.generator.content.safetext import excerpt, refusal
from deckpress.generator.render.tokens import NO_TOKENS, IconTokens, Token

#: The markups a text element may be written in.
MARKUPS = ("none", "html", "markdown")
#: The HTML tags drawn, and what each does.
HTML_TAGS = {"b": "bold", "strong": "bold", "i": "italic", "em": "italic", "br": "break", "hr": "rule"}
#: What a tag of the data's own may be drawn as (a text element's ``html_tags``): ``plain`` keeps
#: its text and drops the tag.
TAG_KINDS = ("bold", "italic", "break", "rule", "plain")
#: ``:name:``, an inline icon of the icon set or of the element's ``inline_images``.
COLON_ICON = re.compile(r":([a-z][a-z0-9-]*):")


class MarkupError(ValueError):
    """A text whose markup cannot be drawn; the message names what and where in the text."""


class Run(NamedTuple):
    """Words in one style ('regular', 'bold', 'italic' or 'bold-italic'), or an icon (``icon`` set,
    ``text`` empty) drawn in the line.  (A named tuple: a card's text makes hundreds of them.)"""

    text: str
    style: str
    icon: Token | None = None


#: A horizontal rule, as a block of :func:`parse`'s result.
RULE = None
Block = tuple[Run, ...] | None


def style_of(bold: bool, italic: bool) -> str:
    """The style name of a run."""
    return ("bold-italic" if italic else "bold") if bold else ("italic" if italic else "regular")


@lru_cache(maxsize=512)
def parse(text: str, markup: str, base: str = "regular", tokens: IconTokens = NO_TOKENS, colon_icons: bool = False,
          tags: tuple[tuple[str, str], ...] = ()) -> tuple[Block, ...]:
    """``text`` in ``markup`` (one of :data:`MARKUPS`) as blocks, one per line it forces: a tuple
    of :class:`Run` (a line of its own, which the engine may wrap further; empty for an empty
    line) or :data:`RULE`.  ``base`` is the element's style, which bold and italic add to;
    ``tokens`` are the game's icon tokens and ``colon_icons`` whether ``:name:`` is an icon (both
    only in elements that draw icons).  ``tags`` are the element's ``html_tags``: the data's own
    tags, each drawn as one of :data:`TAG_KINDS` (html only).

    Raises:
        MarkupError: a tag or construct that is not drawn (html), or a character a reference
            writes that content may not hold; every one in the text, in one message.
    """
    bold, italic = base in ("bold", "bold-italic"), base in ("italic", "bold-italic")
    if markup == "html" and ("<" in text or "&" in text):
        events = _html(text, bold, italic, dict(tags))
    elif markup == "markdown":
        events = _markdown(text, bold, italic)
    else:
        events = _plain(text, bold, italic)
    blocks: list[list[Run]] = [[]]
    plain = not tokens and not colon_icons  # no icons to look for: each text one run
    for event in events:
        if event[0] == "text":
            if plain:
                if event[1]:  # as _icons: no run for no text
                    blocks[-1].append(Run(event[1], style_of(event[2], event[3])))
            else:
                blocks[-1].extend(_icons(event[1], style_of(event[2], event[3]), tokens, colon_icons))
        elif event[0] == "break":
            blocks.append([])
        else:  # a rule: a block of its own, the text going on below it
            blocks[-1:] = [blocks[-1], RULE, []] if blocks[-1] else [RULE, []]  # type: ignore[list-item]
    if blocks[-1] == [] and len(blocks) > 1 and blocks[-2] is RULE:
        blocks.pop()
    return tuple(None if b is RULE else tuple(_merged(b)) for b in blocks)


def _plain(text: str, bold: bool, italic: bool) -> list[tuple]:
    events: list[tuple] = []
    for i, line in enumerate(text.split("\n")):
        if i:
            events.append(("break",))
        events.append(("text", line, bold, italic))
    return events


def _icons(text: str, style: str, tokens: IconTokens, colon_icons: bool) -> list[Run]:
    """``text`` as runs of words and icons (the game's tokens, then ``:name:`` with ``colon_icons``)."""
    out = []
    for part in tokens.split(text):
        if isinstance(part, Token):
            out.append(Run("", style, part))
        elif colon_icons:
            for j, piece in enumerate(COLON_ICON.split(part)):
                if piece:
                    out.append(Run("", style, Token(piece)) if j % 2 else Run(piece, style))
        else:
            out.append(Run(part, style))
    return out


def _merged(runs: list[Run]) -> list[Run]:
    """Neighbouring runs of words in one style as one."""
    out: list[Run] = []
    for run in runs:
        if out and run.icon is None and out[-1].icon is None and out[-1].style == run.style:
            out[-1] = Run(out[-1].text + run.text, run.style)
        elif run.icon is not None or run.text:
            out.append(run)
    return out


class _Reader(HTMLParser):
    """The events of a text in the simple HTML of card data (see the module's docstring)."""

    def __init__(self, bold: bool, italic: bool, tags: dict[str, str] | None = None):
        super().__init__(convert_charrefs=True)
        self.tags = {**HTML_TAGS, **(tags or {})}
        self.bold, self.italic = int(bold), int(italic)
        self.base = (self.bold, self.italic)
        self.events: list[tuple] = []
        self.errors: list[str] = []
        self.refused: set[str] = set()

    def _where(self) -> str:
        line, column = self.getpos()
        return f"line {line}, character {column + 1} of the text" if line > 1 else f"character {column + 1} of the text"

    def _refuse(self, what: str, why: str) -> None:
        self.errors.append(f"{what} ({self._where()}) {why}")

    def _break(self, kind: str) -> None:
        # a line break in the data beside a <br> or <hr> (only spaces between) adds nothing
        while self.events and self.events[-1][0] == "text" and not self.events[-1][1].strip(" \t"):
            self.events.pop()
        if self.events and self.events[-1][0] == "newline" and kind != "newline":
            self.events.pop()
        elif self.events and self.events[-1][0] in ("break", "rule") and kind == "newline":
            return
        self.events.append((kind,))

    def handle_starttag(self, tag, attrs):
        raw = self.get_starttag_text() or f"<{tag}>"
        kind = self.tags.get(tag)
        if kind is None:
            self.refused.add(tag)
            self._refuse(f"'{excerpt(raw, 40)}'", "is not a tag deckpress draws")
        elif attrs:
            self._refuse(f"'{excerpt(raw, 40)}'", f"has attributes, which deckpress does not draw (write <{tag}> alone)")
        elif kind == "bold":
            self.bold += 1
        elif kind == "italic":
            self.italic += 1
        elif kind != "plain":
            self._break(kind)

    def handle_startendtag(self, tag, attrs):  # <br/>, <hr />
        self.handle_starttag(tag, attrs)
        if self.tags.get(tag) in ("bold", "italic") and not attrs:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        kind = self.tags.get(tag)
        if kind is None:
            if tag not in self.refused:  # its opening tag is refused already
                self._refuse(f"'</{excerpt(tag, 30)}>'", "closes a tag deckpress does not draw")
        elif kind == "bold":
            self.bold = max(self.base[0], self.bold - 1)
        elif kind == "italic":
            self.italic = max(self.base[1], self.italic - 1)
        # </br> and </hr> close nothing: browsers read </br> as <br>, and so does deckpress
        elif kind == "break":
            self._break("break")

    def handle_data(self, data):
        for i, line in enumerate(data.split("\n")):
            if i:
                self._break("newline")
            if line:
                self.events.append(("text", line, bool(self.bold), bool(self.italic)))

    def handle_comment(self, data):
        self._refuse("a comment '<!--...-->'", "is not drawn: take it out of the card's text")

    def handle_decl(self, decl):
        self._refuse(f"'<!{excerpt(decl, 30)}>'", "is not drawn")

    def handle_pi(self, data):
        self._refuse(f"'<?{excerpt(data, 30)}>'", "is not drawn")

    def unknown_decl(self, data):
        self._refuse(f"'<![{excerpt(data, 30)}]>'", "is not drawn")


#: A numeric character reference: HTML's reader drops those of control characters without a word.
_NUMERIC_REFERENCE = re.compile(r"&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));?")


#: The tags drawn, written as card data writes them (any case, ``<br/>``, ``<hr />``): a text whose
#: every ``<`` opens one of these is read by :func:`_simple_html`, without the general reader.
_SIMPLE_TAG = re.compile(r"<(/?)(b|strong|i|em|br|hr)\s*/?>", re.IGNORECASE)


def _simple_html(text: str, bold: bool, italic: bool) -> list[tuple] | None:
    """The events of ``text`` if every ``<`` in it opens a tag that is drawn, with no attributes,
    the same as :class:`_Reader` gives; else None (the reader then says what is wrong)."""
    from html import unescape

    parts = _SIMPLE_TAG.split(text)  # text, then (closing '/', tag name, text) per tag
    if text.count("<") != len(parts) // 3:
        return None
    b, i = int(bold), int(italic)
    base = (b, i)
    events: list[tuple] = []

    def brk(kind: str) -> None:  # as _Reader._break
        while events and events[-1][0] == "text" and not events[-1][1].strip(" \t"):
            events.pop()
        if events and events[-1][0] == "newline" and kind != "newline":
            events.pop()
        elif events and events[-1][0] in ("break", "rule") and kind == "newline":
            return
        events.append((kind,))

    for j in range(0, len(parts), 3):
        if j:
            closing, tag = parts[j - 2], parts[j - 1].lower()
            what = HTML_TAGS[tag]
            if what == "bold":
                b = max(base[0], b - 1) if closing else b + 1
            elif what == "italic":
                i = max(base[1], i - 1) if closing else i + 1
            elif not closing or tag == "br":  # </hr> closes nothing; </br> is a <br>
                brk("break" if tag == "br" else "rule")
        data = unescape(parts[j]) if "&" in parts[j] else parts[j]
        for k, line in enumerate(data.split("\n")):
            if k:
                brk("newline")
            if line:
                events.append(("text", line, b > 0, i > 0))
    return events


def _html(text: str, bold: bool, italic: bool, tags: dict[str, str]) -> list[tuple]:
    simple = None if tags else _simple_html(text, bold, italic)  # the data's own tags: the general reader
    if simple is not None and ("&#" not in text or not any(_NUMERIC_REFERENCE.finditer(text))):
        _check(simple, [], "html")
        return [("break",) if e[0] == "newline" else e for e in simple]
    reader = _Reader(bold, italic, tags)
    reader.feed(text)
    reader.close()
    for m in _NUMERIC_REFERENCE.finditer(text):
        code = int(m.group(1), 16) if m.group(1) else int(m.group(2))
        bad = refusal(chr(code)) if code < 0x110000 else None
        if bad:
            reader.errors.append(f"'{m.group()}' writes {bad.removeprefix('contains ')}")
    _check(reader.events, reader.errors, "html", tuple(tags))
    return [("break",) if e[0] == "newline" else e for e in reader.events]


@lru_cache(maxsize=1)
def _markdown_parser():
    from markdown_it import (
        MarkdownIt,  # imported when a layout asks for markdown: deckpress starts faster without it
    )

    return MarkdownIt("zero", {"breaks": True, "html": False}).enable(["emphasis", "newline", "escape", "hr", "entity"])


def _markdown(text: str, bold: bool, italic: bool) -> list[tuple]:
    events: list[tuple] = []
    b, i = int(bold), int(italic)
    after_paragraph = False
    for token in _markdown_parser().parse(text):
        if token.type == "hr":
            events.append(("rule",))
            after_paragraph = False
        elif token.type == "paragraph_open" and after_paragraph:
            events += [("break",), ("break",)]  # a blank line leaves an empty one
        elif token.type == "paragraph_close":
            after_paragraph = True
        elif token.type == "inline":
            for child in token.children or []:
                kind = child.type
                if kind in ("text", "text_special"):
                    events.append(("text", child.content, b > 0, i > 0))
                elif kind in ("softbreak", "hardbreak"):
                    events.append(("break",))
                elif kind in ("strong_open", "strong_close"):
                    b += 1 if kind.endswith("open") else -1
                elif kind in ("em_open", "em_close"):
                    i += 1 if kind.endswith("open") else -1
    _check(events, [], "markdown")
    return events


def _check(events: list[tuple], errors: list[str], markup: str, own: tuple[str, ...] = ()) -> None:
    """Raise the errors found, with the characters a reference wrote that content may not hold."""
    for event in events:
        if event[0] == "text":
            bad = refusal(event[1])
            if bad and bad not in errors:
                errors.append(bad)
    if errors:
        allowed = ("; it draws <b>, <strong>, <i>, <em>, <br> and <hr>" + "".join(f", <{t}>" for t in own)
                   + " (give the data's own tags under html_tags in layout.yaml)") if markup == "html" else ""
        raise MarkupError(f"has markup that cannot be drawn ({markup}): " + "; ".join(errors) + allowed)
