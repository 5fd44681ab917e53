"""Editions in other languages: which texts of a game are translated, and the gettext catalogues
(``locales/<lang>.po`` in the game folder) that translate them.

A game folder's texts are in its *source language* (game.yaml ``language``, default ``en``).  The
texts a translator sees, each with its gettext context (``msgctxt``), are:

- ``game/title``, ``game/rulebook``, ``game/components/ID/name``, ``game/modes/ID/name`` and
  ``game/modes/ID/description`` (game.yaml: printed on the cover), ``deck/DECK_ID/name`` (a data
  game's decks);
- ``STEM/CARD_ID/FIELD``: each field game.yaml's ``translate: {STEM: [FIELD, ...]}`` declares
  translatable, of every record of the content file STEM (a deck id for a game made from data);
- ``layout/KIND/SIDE/INDEX`` (``layout/boards/KIND/...`` for a board): every constant ``text``
  of layout.yaml (its words outside ``{field}`` templates, which stay as they are);
- texts the print kit composes itself (``kit/...``, with ``{placeholders}`` where a number goes,
  and ``missions/CARD_ID/text`` for 50 Missions' texts generated from a condition): each is
  declared where it is composed, by calling :func:`tr`.

Numbers, ids and icons are never translated: they are not in these lists.  The gettext format is
read and written with Babel (``babel.messages``, BSD-3); ``docs/translating.md`` is the
translator's guide.  The pseudo-language ``qps`` translates every text by :func:`pseudo`.
"""
from __future__ import annotations

import contextvars
import copy
import re
import string
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from deckpress.generator.content.errors import ContentError, ContentErrors

#: The pseudo-language: every text lengthened and accented (:func:`pseudo`), never a file.
PSEUDO = "qps"
#: Where a game folder keeps its catalogues: ``locales/<lang>.po``.
LOCALES = "locales"
#: The language of a game folder's own texts when game.yaml gives none.
DEFAULT_SOURCE = "en"
_LANG = re.compile(r"^[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*$")
#: The largest catalogue read, in bytes (checked before reading).
MAX_PO_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class Text:
    """One translatable text of a game.

    Attributes:
        context: the gettext ``msgctxt`` (``"missions/total-20/text"``).
        source: the ``msgid``: the text in the folder's source language, exactly as written
            (``{placeholders}`` included).
        comment: what the text is, for the translator (a ``#.`` comment).
        where: ``(file relative to the game folder, line)`` of the source text, or None for a
            text the kit composes.
        path: ``(document stem, path in its data)`` where the text is substituted; None for a text
            the kit composes (translated when it is composed, by :func:`tr`).
        card: which card it is on, for messages ("card total-20", "every symbol card"; "" for the
            game's own texts, whose context says it).
    """

    context: str
    source: str
    comment: str = ""
    where: tuple[str, int] | None = None
    path: tuple[str, tuple] | None = field(default=None, compare=False)
    card: str = ""


# --- texts the kit composes -------------------------------------------------------------------

_Translator = Callable[[str, str, str], str]
_active: contextvars.ContextVar[_Translator | None] = contextvars.ContextVar("deckpress_translator", default=None)
#: The language being built (None: the folder's own texts, written as the kit writes English).
_language: contextvars.ContextVar[str | None] = contextvars.ContextVar("deckpress_language", default=None)


def tr(context: str, source: str, comment: str = "", /, **values: Any) -> str:
    """``source`` (a text the print kit composes, in English) in the language being built, with
    ``{name}`` placeholders filled from ``values``: ``tr("kit/fifty-missions/number", "No. {n}",
    "the mission's number", n=12)``.  Without an edition being built it is ``source`` filled in;
    while :func:`extract` runs it records the text.  A translation's placeholders are checked
    against the source's when its catalogue is read (:func:`read_catalogue`), so filling them in
    cannot fail here."""
    translator = _active.get()
    text = translator(context, source, comment) if translator else source
    return text.format_map(values) if values else text


@contextmanager
def translating(translator: _Translator | None, lang: str | None = None) -> Iterator[None]:
    """Within the block, :func:`tr` calls ``translator(context, source, comment)``, and numbers
    and lists the kit composes (:func:`number`, :func:`percent`, :func:`listed`) are written as
    language ``lang`` writes them (None: as before, the kit's English)."""
    token, lang_token = _active.set(translator), _language.set(lang)
    try:
        yield
    finally:
        _active.reset(token)
        _language.reset(lang_token)


def _locale() -> str | None:
    """The Babel locale of the language being built; None for the kit's own English, the
    pseudo-language and a code Babel does not know (their numbers are written as English)."""
    from babel import Locale, UnknownLocaleError

    lang = _language.get()
    if lang is None or lang == PSEUDO:
        return None
    try:
        return str(Locale.parse(lang.replace("-", "_")))
    except (ValueError, UnknownLocaleError):
        return None


def number(value: float) -> str:
    """``value`` (a measure in mm, a count) as the language being built writes it, with no
    grouping: ``1.5`` in English, ``1,5`` in French and German (Babel's CLDR data); whole
    numbers without decimals, as ``format(value, "g")``."""
    locale = _locale()
    if locale is None:
        return f"{value:g}"
    from babel.numbers import format_decimal

    return format_decimal(float(f"{value:g}"), locale=locale, group_separator=False)


def percent(share: float, decimals: int = 1) -> str:
    """``share`` (0.441) as a percentage with ``decimals`` decimals, as the language being built
    writes it, with that language's pattern: ``44.1%`` in English, ``44,1 %`` in French and
    German (Babel's CLDR data)."""
    locale = _locale()
    if locale is None:
        return f"{share:.{decimals}%}"
    from babel import Locale
    from babel.numbers import format_percent

    pattern = Locale.parse(locale).percent_formats[None].pattern  # the language's own: "#,##0 %" in French
    if decimals:
        pattern = re.sub(r"0(?=[^0-9#]*%)", "0." + "0" * decimals, pattern, count=1)
    return format_percent(share, pattern, locale=locale)


def listed(items: list[str], style: str = "or") -> str:
    """``items`` joined as one list in the language being built: ``style`` "or" (``a or b``,
    ``a ou b``) or "and" (``a, b and c``, CLDR's list patterns through Babel).  In the kit's
    English, "or" joins every item with " or " and "and" with ", "."""
    locale = _locale()
    if locale is None:
        return (" or " if style == "or" else ", ").join(items)
    from babel.lists import format_list

    return format_list(items, style="or" if style == "or" else "standard", locale=locale)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of ``text`` (``"No. {n}"`` -> ``{"n"}``); empty when it is not a
    format string (unbalanced braces)."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return set()


# --- which texts a game translates -----------------------------------------------------------

def source_language(content) -> str:
    """The language of the game folder's own texts: game.yaml ``language`` (default ``en``)."""
    return str(content["game"].get("language", DEFAULT_SOURCE))


def languages(content) -> list[str]:
    """The languages the game folder has catalogues for (``locales/*.po``), sorted."""
    folder = Path(content.root) / LOCALES
    return sorted(p.stem for p in folder.glob("*.po")) if folder.is_dir() else []


def declaration_errors(content) -> list[ContentError]:
    """Errors of game.yaml's ``translate``, each at its line in game.yaml: a file it names that the
    game does not have, or whose records the game cannot find (no list of records with ids); a
    field no card of that file has; a field that is the cards' ``id`` or holds numbers (ids and
    numbers are never translated: the rules engines and the layout read them as they are)."""
    from deckpress.generator.content import record_list

    game = content.documents["game"]
    errors = []
    for stem in content["game"].get("translate", {}) or {}:
        if stem not in content.documents or stem == "game":
            known = ", ".join(s for s in content.documents if s not in ("game", "layout"))
            errors.append(game.error(("translate", stem), f"translate: the game has no content file '{stem}' (its files: {known})", key=True))
        elif (key := record_list(content.game_id, stem, content[stem])) is None:
            errors.append(game.error(("translate", stem), f"translate: '{stem}' has no list of cards with ids, so its texts have no context", key=True))
        else:
            records = [r for r in content[stem][key] if isinstance(r, dict)]
            for i, name in enumerate(content["game"]["translate"][stem]):
                values = [v for r in records if (v := _field(r, name)[0]) is not None]
                if name == "id" or any(isinstance(v, (int, float, bool)) for v in values):
                    errors.append(game.error(("translate", stem, i), f"translate: '{name}' of {stem} holds ids or numbers, which are never "
                                                                     "translated (rules and layouts read them as they are): leave it out"))
                elif not values:
                    fields = sorted({k for r in records for k, v in r.items() if isinstance(v, (str, dict))} - {"id"})
                    errors.append(game.error(("translate", stem, i), f"translate: no card of {stem} has a field '{name}' "
                                                                     f"(its text fields: {', '.join(fields)})"))
    return errors


def texts(content) -> list[Text]:
    """Every translatable text of ``content``, in a stable order (game.yaml's, the declared card
    fields', layout.yaml's, then the kit's own in the order it composes them); one per context.

    Raises:
        ContentErrors: game.yaml's ``translate`` names a file the game does not have
            (:func:`declaration_errors`).
    """
    errors = declaration_errors(content)
    if errors:
        raise ContentErrors(errors)
    found = [*_game_texts(content), *_card_texts(content), *_layout_texts(content), *_kit_texts(content)]
    seen: dict[str, Text] = {}
    for t in found:
        seen.setdefault(t.context, t)
    return list(seen.values())


def _at(doc, path: tuple) -> tuple[str, int]:
    file = Path(doc.display or str(doc.path)).name
    return file, doc.where(path)[0]


def _game_texts(content) -> Iterator[Text]:
    doc = content.documents["game"]
    game = doc.data
    title = ""
    yield Text("game/title", game["title"], "the game's title", _at(doc, ("title",)), ("game", ("title",)), title)
    if isinstance(game.get("rulebook"), str):
        yield Text("game/rulebook", game["rulebook"], "where the full rules are (printed on the cover)", _at(doc, ("rulebook",)),
                   ("game", ("rulebook",)), title)
    for key, fields in (("components", ("name", "description")), ("modes", ("name", "description")), ("decks", ("name",))):
        for i, item in enumerate(game.get(key) or []):
            for f in fields:
                if isinstance(item, dict) and isinstance(item.get(f), str):
                    context = f"deck/{item['id']}/{f}" if key == "decks" else f"game/{key}/{item['id']}/{f}"
                    what = {"components": f"a component's {f}", "modes": f"a way to play: its {f}", "decks": "a deck's name"}[key]
                    yield Text(context, item[f], what, _at(doc, (key, i, f)), ("game", (key, i, f)), title)


def _card_texts(content) -> Iterator[Text]:
    from deckpress.generator.content import record_list

    for stem, fields in (content["game"].get("translate") or {}).items():
        doc = content.documents[stem]
        key = record_list(content.game_id, stem, doc.data)
        for i, record in enumerate(doc.data[key]):
            for f in fields:
                value, within = _field(record, f)
                if isinstance(value, str) and value.strip():
                    yield Text(f"{stem}/{record['id']}/{f}", value, f"{stem}: the {f} of {record['id']}", _at(doc, (key, i, *within)),
                               (stem, (key, i, *within)), f"card {record['id']}")


def _field(record: Any, name: str) -> tuple[Any, tuple[str, ...]]:
    """The value of field ``name`` of a card record (``success.gadget``: a field of a group of
    fields) and its path in the record; ``(None, path)`` when it has none."""
    path = tuple(name.split("."))
    value = record
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value, path


def _wordy(text: str) -> bool:
    """Whether a layout text has words of its own outside ``{field}`` templates."""
    return any(ch.isalpha() for ch in re.sub(r"\{[^{}]*\}", "", text))


def _layout_texts(content) -> Iterator[Text]:
    from deckpress.generator.content.layout_kinds import element_paths

    doc = content.documents["layout"]
    for group in ("cards", "boards"):
        for kind, spec in (doc.data.get(group) or {}).items():
            if not isinstance(spec, dict):
                continue
            for side, elements in spec.items():
                if not (isinstance(elements, list) and all(isinstance(e, dict) for e in elements)):
                    continue
                for path, element in element_paths(elements, (group, kind, side)):
                    text = element.get("text")
                    if element.get("type") == "text" and isinstance(text, str) and _wordy(text):
                        where = "/".join(str(p) for p in path[1:])
                        context = f"layout/{where}" if group == "cards" else f"layout/boards/{where}"
                        yield Text(context, text, f"printed on every {kind} card's {side}" if group == "cards" else f"printed on the {kind} board",
                                   _at(doc, path + ("text",)), ("layout", path + ("text",)),
                                   f"every {kind!r} card" if group == "cards" else f"the {kind} board")


def _kit_texts(content) -> list[Text]:
    """The texts the game's print kit composes, recorded by running it (its decks, boards and cover)
    with a translator that writes down every :func:`tr` call."""
    from deckpress.generator.kit.adapters import kit_module

    found: list[Text] = []

    def record(context: str, source: str, comment: str) -> str:
        place = _kit_place(content, context)
        card = f"card {context.split('/')[1]}" if place else f"every {context.split('/')[1]} card" if context.startswith("deck/") else ""
        found.append(Text(context, source, comment or "composed by the print kit", place, None, card))
        return source

    from deckpress.generator.kit.words import PHRASES

    module = kit_module(content.game_id)
    with translating(record):
        module.decks(content)
        if hasattr(module, "boards"):
            module.boards(content)
        module.cover(content)
    found += [Text(p.context, p.source, p.comment, None, None, "") for p in PHRASES]
    found += [Text(context, source, comment, None, None, "") for context, source, comment in template_texts(PROSE_TEMPLATES)]
    return found


#: The prose templates (``generator/templates/``) whose sentences are the kit's texts too.
PROSE_TEMPLATES = ("how-to-print.txt.j2",)


def template_texts(names: tuple[str, ...] = PROSE_TEMPLATES) -> list[tuple[str, str, str]]:
    """Every ``tr(context, English, comment, ...)`` call of the prose templates ``names``, as
    ``(context, English, comment)``, read from the templates' syntax (not by rendering them, so
    that the sentences of every option are found), in the order they are written.

    Raises:
        ValueError: a ``tr`` call whose first three arguments are not plain strings (a bug in a
            template: its sentence could not be listed for translators).
    """
    from deckpress.generator.paths import TEMPLATES_DIR

    return [call for name in names for call in _tr_calls(TEMPLATES_DIR / name)]


@lru_cache(maxsize=8)
def _tr_calls(path: Path) -> tuple[tuple[str, str, str], ...]:
    """The ``tr()`` calls of the template at ``path`` (:func:`template_texts`), read once: the
    templates ship with deckpress, and every edition's list of texts reads them."""
    from jinja2 import Environment, nodes

    out = []
    for call in Environment().parse(path.read_text(encoding="utf-8")).find_all(nodes.Call):
        if not (isinstance(call.node, nodes.Name) and call.node.name == "tr"):
            continue
        args = call.args[:3]
        if len(args) < 2 or not all(isinstance(a, nodes.Const) and isinstance(a.value, str) for a in args):
            raise ValueError(f"{path.name}:{call.lineno}: tr() takes its context, English and comment as plain strings")
        values = [a.value for a in args]  # type: ignore[attr-defined]  # checked just above: every one a Const
        out.append((values[0], values[1], values[2] if len(values) > 2 else ""))
    return tuple(out)


def _kit_place(content, context: str) -> tuple[str, int] | None:
    """Where a composed text about a card (``missions/ID/text``) comes from: that card's line."""
    from deckpress.generator.content import card_locator

    parts = context.split("/")
    if len(parts) == 3 and parts[0] in content.documents:
        place = card_locator(content)(Path(content.documents[parts[0]].path).name, parts[1])
        if place:
            return _at(*place)
    return None


# --- catalogues --------------------------------------------------------------------------------

def po_path(root: Path, lang: str) -> Path:
    """``root/locales/<lang>.po``.

    Raises:
        ValueError: ``lang`` is not a language code (``fr``, ``pt_BR``, ``de-CH``).
    """
    if not _LANG.match(lang):
        raise ValueError(f"'{lang}' is not a language code (for example fr, de, hi, pt_BR)")
    return Path(root) / LOCALES / f"{lang}.po"


def read_catalogue(path: Path, display: str | None = None):
    """The Babel ``Catalog`` in the PO file at ``path``.

    Raises:
        ContentErrors: the file is too large, not UTF-8, not a PO file (at its line), or a
            translation whose ``{placeholders}`` differ from its source's (at the entry's line).
    """
    from babel.messages.pofile import PoFileError, read_po

    from deckpress.generator.content.gate import GateError, read_text

    shown = display or str(path)
    try:
        text = read_text(Path(path), max_bytes=MAX_PO_BYTES)
    except (GateError, OSError) as exc:
        line, column = getattr(exc, "line", 0), getattr(exc, "column", 0)
        raise ContentErrors([ContentError(shown, line, column, f"cannot read the catalogue: {exc}")]) from None
    import io

    try:
        catalogue = read_po(io.BytesIO(text.encode("utf-8")), abort_invalid=True)
    except PoFileError as exc:
        line = int(getattr(exc, "lineno", -1)) + 1  # Babel counts lines from 0
        raise ContentErrors([ContentError(shown, line, 1 if line else 0, f"not a gettext PO file: {exc}")]) from None
    errors = []
    lines = _entry_lines(text)
    for message in catalogue:
        if not message.id or not isinstance(message.string, str) or not message.string:
            continue
        want, got = placeholders(str(message.id)), placeholders(message.string)
        if want != got:
            errors.append(ContentError(shown, lines.get((message.context, str(message.id)), 0), 1,
                                       f"the translation of '{message.context}' has the placeholders {{{', '.join(sorted(got))}}} "
                                       f"but its source has {{{', '.join(sorted(want))}}}: keep each {{name}} of the source, translate only the words"))
    if errors:
        raise ContentErrors(errors)
    return catalogue


def _entry_lines(text: str) -> dict[tuple[str | None, str], int]:
    """``(msgctxt, msgid) -> line`` of each entry's ``msgid`` in a PO file's text (its first line
    of a wrapped msgid), for errors at the entry."""
    from babel.messages.pofile import unescape

    out: dict[tuple[str | None, str], int] = {}
    context: str | None = None
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("msgctxt "):
            context = unescape(line[8:].strip())
            while i + 1 < len(lines) and lines[i + 1].startswith('"'):
                i += 1
                context += unescape(lines[i].strip())
        elif line.startswith("msgid "):
            start, msgid = i + 1, unescape(line[6:].strip())
            while i + 1 < len(lines) and lines[i + 1].startswith('"'):
                i += 1
                msgid += unescape(lines[i].strip())
            out[(context, msgid)] = start
            context = None
        i += 1
    return out


def template(content, found: list[Text] | None = None):
    """A Babel ``Catalog`` (the POT) of every translatable text of ``content``: msgctxt, msgid, the
    ``#:`` place and the ``#.`` comment of each."""
    from babel.messages.catalog import Catalog

    catalogue = Catalog(project=content["game"]["title"], version=None, charset="utf-8", fuzzy=False,
                        header_comment=f"# Translatable texts of {content['game']['title']} ({content.game_id}), "
                                       f"source language {source_language(content)}.\n# Made by 'deckpress translate extract'.")
    for t in (texts(content) if found is None else found):
        catalogue.add(t.source, context=t.context, locations=[t.where] if t.where else [], auto_comments=[t.comment] if t.comment else [])
    return catalogue


def merged(old, new_template, lang: str):
    """``old`` (a Babel ``Catalog`` read from ``locales/<lang>.po``, or None) brought up to
    ``new_template``: an entry whose context and source are unchanged keeps its translation, flags
    and comments; an entry whose context is there with another source keeps the translation and
    is marked fuzzy, the old source kept as its ``#|`` previous msgid (exactly those entries are
    fuzzy); a new context is added untranslated; a context gone is kept as obsolete (``#~``).
    Returns ``(catalogue, changed)``."""
    from babel.messages.catalog import Catalog

    if old is None:
        from babel.core import UnknownLocaleError

        try:
            old = Catalog(locale=lang.replace("-", "_"), charset="utf-8", fuzzy=False, project=new_template.project)
        except (UnknownLocaleError, ValueError):
            old = Catalog(locale=None, charset="utf-8", fuzzy=False, project=new_template.project)
        old.header_comment = (f"# {lang} translation of {new_template.project}.\n# Translator: NAME, from what source text "
                              "(the publisher's printed edition, or 'translated for deckpress').")
    by_context = {m.context: m for m in old if m.id}
    changed = False
    result = copy.copy(old)
    result._messages = type(old._messages)()  # noqa: SLF001 (a fresh list of messages, header kept)
    result.obsolete = type(old.obsolete)(old.obsolete)
    for message in new_template:
        if not message.id:
            continue
        before = by_context.pop(message.context, None)
        if before is None:
            result.add(message.id, "", locations=message.locations, auto_comments=message.auto_comments, context=message.context)
            changed = True
            continue
        kept = copy.copy(before)
        if before.id != message.id:
            kept.previous_id = [str(before.id)]
            kept.id = message.id
            kept.flags = set(before.flags) | {"fuzzy"}
            changed = True
        if list(kept.locations) != list(message.locations) or _said(kept.auto_comments) != _said(message.auto_comments):
            kept.locations, kept.auto_comments = list(message.locations), list(message.auto_comments)
            changed = True
        result[kept.id] = kept
    for gone in by_context.values():
        result.obsolete[result._key_for(gone.id, gone.context)] = gone  # noqa: SLF001
        changed = True
    return result, changed


def _said(comments) -> str:
    """Extracted comments as one text to compare, without white space: a PO editor wraps a long
    ``#.`` comment over several lines (at spaces, and after a hyphen), which read back as several
    comments."""
    return "".join("".join(comments).split())


def write_catalogue(catalogue, ignore_obsolete: bool = False) -> bytes:
    """``catalogue`` as PO file bytes (UTF-8, Babel's writer: lines wrapped at 76 columns)."""
    import io

    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalogue, width=76, ignore_obsolete=ignore_obsolete, include_previous=True, sort_output=False)
    return out.getvalue()


# --- an edition ----------------------------------------------------------------------------------

_ACCENTS = str.maketrans("aAcCeEgGiIlLnNoOrRsSuUyYzZ", "ȧȦçÇéÉğĞîÎłŁñÑöÖřŘšŠüÜýÝžŽ")


def pseudo(text: str) -> str:
    """``text`` pseudo-localised: letters accented, lengthened by about 40 % (vowels doubled, then
    ``~`` padding), between brackets; ``{placeholders}`` and markup tags are kept as they are, so
    a card still fills in its numbers (``"No. {n}"`` -> ``"[Ñöö. {n}~]"``).  As Microsoft's
    ``qps-ploc`` pseudo-locale does; the growth allows for French and German, which run about
    30-40 % longer than English (IBM globalization guidelines)."""
    if not text.strip():
        return text
    parts = re.split(r"(\{[^{}]*\}|<[^<>]*>|&[a-z]+;)", text)
    letters = sum(len(p) for i, p in enumerate(parts) if i % 2 == 0)
    target = round(letters * 0.4)
    out, grown = [], 0
    for i, part in enumerate(parts):
        if i % 2:
            out.append(part)
            continue
        chars = []
        for ch in part:
            chars.append(ch.translate(_ACCENTS))
            if grown < target and ch.lower() in "aeiou":
                chars.append(ch.translate(_ACCENTS))
                grown += 1
        out.append("".join(chars))
    body = "".join(out) + "~" * max(0, target - grown - 2)
    return f"[{body}]"


@dataclass
class Edition:
    """What building ``content`` in ``lang`` found.

    Attributes:
        lang: the language code.
        missing: texts without a translation (an empty or absent ``msgstr``).
        fuzzy: texts whose translation is marked fuzzy (printed, and warned about).
        po: the catalogue's path as shown to the user (None for the source language or ``qps``).
    """

    lang: str
    missing: list[Text] = field(default_factory=list)
    fuzzy: list[Text] = field(default_factory=list)
    po: str | None = None
    lookup: dict[str, str] = field(default_factory=dict, repr=False)
    update: str = "run 'deckpress translate update GAME --lang CODE'"  # how to bring the catalogue up to date (:func:`update_hint`)

    def translator(self, context: str, source: str, comment: str) -> str:
        """The translation of a composed text (its source where the catalogue has none)."""
        if self.lang == PSEUDO:
            return pseudo(source)
        return self.lookup.get(context, source)

    def missing_error(self, limit: int = 20) -> ContentError:
        """ONE error at the catalogue listing the missing entries with their cards (the first
        ``limit`` of them, then how many more: the catalogue lists them all)."""
        shown = [f"{t.context} ('{_short(t.source)}'{', ' + t.card if t.card else ''})" for t in self.missing[:limit]]
        more = f"; and {len(self.missing) - limit} more (their msgstr is empty in the catalogue)" if len(self.missing) > limit else ""
        return ContentError(self.po or self.lang, 0, 0,
                            f"{len(self.missing)} text{'s' * (len(self.missing) != 1)} ha{'ve' if len(self.missing) != 1 else 's'} "
                            f"no {self.lang} translation: {'; '.join(shown)}{more} ({self.update}, "
                            f"translate them, or build with --allow-missing to print the source text)")


def _short(text: str, n: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def variant_po(variant: Path, lang: str) -> Path:
    """Where a fan variant keeps its own translation of the texts it changes or adds: beside it,
    ``<variant stem>.<lang>.po`` (``night-shift.yaml`` -> ``night-shift.fr.po``).

    Raises:
        ValueError: ``lang`` is not a language code.
    """
    po_path(Path("."), lang)  # the code checked
    return Path(variant).with_name(f"{Path(variant).stem}.{lang}.po")


def variant_texts(merged, base) -> list[Text]:
    """The texts of a variant's merged content that its base game does not have as they are (a
    card the variant adds, a text it changes): what its own catalogue translates."""
    known = {(t.context, t.source) for t in texts(base)}
    return [t for t in texts(merged) if (t.context, t.source) not in known]


def edition(content, lang: str, variant: Path | None = None) -> tuple[Any, Edition]:
    """``content`` in language ``lang``: every translatable text substituted from
    ``locales/<lang>.po`` (``qps``: pseudo-localised; the source language: as it is), with the
    :class:`Edition` saying what was missing or fuzzy.  A missing text keeps its source text.
    The kit's composed texts are translated by :func:`tr` within :func:`building`.  For a
    variant's merged content, ``variant`` is the variant file: its own catalogue
    (:func:`variant_po`) translates first, the game's the rest.

    Raises:
        ContentErrors: no catalogue for ``lang`` (listing the languages there are), a catalogue
            that cannot be read (:func:`read_catalogue`), game.yaml's ``translate`` naming a file
            the game does not have.
    """
    from deckpress.generator.content.errors import display_path

    report = Edition(lang, update=update_hint(content, lang))
    if lang == source_language(content):
        return content, report
    found = texts(content)
    if lang == PSEUDO:
        report.lookup = {t.context: pseudo(t.source) for t in found}
    else:
        try:
            paths = [variant_po(variant, lang)] if variant is not None else []
            paths.append(po_path(content.root, lang))
        except ValueError as exc:
            raise ContentErrors([ContentError(content.game_id, 0, 0, f"--lang: {exc}")]) from None
        report.po = display_path(paths[-1])
        there = [p for p in paths if p.is_file()]
        if not there:
            have = ", ".join([source_language(content), *languages(content), PSEUDO])
            raise ContentErrors([ContentError(report.po, 0, 0, f"--lang {lang}: {content.game_id} has no {lang} translation "
                                                              f"(its languages: {have}); to start one, {report.update}")])
        catalogues = [read_catalogue(p, display_path(p)) for p in there]
        for t in found:
            message = next((m for c in catalogues if (m := c.get(t.source, context=t.context)) is not None and m.string), None)
            if message is None:
                report.missing.append(t)
                continue
            if message.fuzzy:
                report.fuzzy.append(t)
            report.lookup[t.context] = str(message.string)
    return substituted(content, found, report.lookup), report


def installed(content: Any) -> bool:
    """Whether ``content`` is a shipped game's folder inside an installed deckpress (not the
    source checkout), which an upgrade replaces: no command writes there
    (:data:`deckpress.generator.paths.IN_CHECKOUT`)."""
    from deckpress.generator.paths import CONTENT_DIR, IN_CHECKOUT

    return not IN_CHECKOUT and Path(content.root).resolve().parent == CONTENT_DIR.resolve()


def update_hint(content: Any, lang: str) -> str:
    """How a user starts or brings up to date ``content``'s ``lang`` catalogue, as a clause: the
    ``translate update`` command for its folder, or, for a shipped game inside an installed
    deckpress (whose folders no command writes), the copy to make first."""
    import shlex

    from deckpress.generator.content.errors import display_path
    from deckpress.generator.paths import CONTENT_DIR

    root = Path(content.root)
    if installed(content):
        copy = f"my-{content.game_id}"
        return (f"{content.game_id} is installed with deckpress: translate a copy of it (deckpress init {copy} --like "
                f"{content.game_id}, then deckpress translate update {copy} --lang {lang})")
    folder = content.game_id if root.resolve().parent == CONTENT_DIR.resolve() else shlex.quote(display_path(root))
    return f"run 'deckpress translate update {folder} --lang {lang}'"


def substituted(content, found: list[Text], lookup: dict[str, str]):
    """``content`` with the texts of ``found`` that ``lookup`` (context -> text) has replaced in
    copies of their documents; the content itself is not changed."""
    docs = dict(content.documents)
    copies: dict[str, Any] = {}
    for t in found:
        if t.path is None or t.context not in lookup:
            continue
        stem, path = t.path
        if stem not in copies:
            copies[stem] = copy.deepcopy(docs[stem].data)
        node = copies[stem]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = lookup[t.context]
    for stem, data in copies.items():
        docs[stem] = replace(docs[stem], data=data)
    return replace(content, documents=docs)


@contextmanager
def building(report: Edition) -> Iterator[None]:
    """Within the block, the kit's composed texts (:func:`tr`) are in ``report``'s language."""
    translated = bool(report.lookup) or report.lang == PSEUDO  # not the source language, nor every text missing
    with translating(report.translator if translated else None, report.lang if translated else None):
        yield


# --- names in a game log -------------------------------------------------------------------------

def _folded(text: str) -> str:
    """A name as logs compare names (as :func:`deckpress.rules.core.events.folded`)."""
    return " ".join(text.casefold().split()).rstrip(".")


#: The longest name, in words, that a line typed at ``deckpress record`` is searched for.
MAX_NAME_WORDS = 8


@dataclass
class Names:
    """The game's printed names in other languages, back to the names its rules engine knows (the
    source language's): a game log written at a French table names French cards.

    Attributes:
        exact: folded translated text -> source text (a translation several sources share, in
            one language or across several, is left out: it cannot say which is meant).
        patterns: for a text with ``{placeholders}`` (``"N° {n}"``), a regular expression
            matching its translation and the source template to fill (``"No. {n}"``).
    """

    exact: dict[str, str] = field(default_factory=dict)
    patterns: list[tuple[re.Pattern[str], str]] = field(default_factory=list)
    #: templates of placeholders and spaces only (``"{symbol} {colour}"``): they match a name only
    #: when every part is a translated name ("briquet rouge" -> "red lighter")
    loose: list[tuple[re.Pattern[str], str]] = field(default_factory=list)

    def source(self, name: str) -> str:
        """``name`` as the source language prints it (``"Médaille de bronze"`` -> ``"Bronze
        medal"``, ``"N° 12"`` -> ``"No. 12"``); ``name`` itself when it is no translated text."""
        found = self.exact.get(_folded(name))
        if found is not None:
            return found
        for pattern, template in self.patterns:
            match = pattern.fullmatch(" ".join(name.split()))
            if match:
                return template.format_map({k: self.exact.get(_folded(v), v) for k, v in match.groupdict().items()})
        for pattern, template in self.loose:
            match = pattern.fullmatch(" ".join(name.split()))
            if match and all(_folded(v) in self.exact for v in match.groupdict().values()):
                return template.format_map({k: self.exact[_folded(v)] for k, v in match.groupdict().items()})
        # a log names a card by its printed name and its value ("briquet rouge 3" -> "red lighter 3")
        head, _, number = " ".join(name.split()).rpartition(" ")
        if head and number.isdigit() and self.source(head) != head:
            return f"{self.source(head)} {number}"
        return name

    def in_line(self, line: str) -> str:
        """A line typed at ``deckpress record`` with every translated name in it (any case, the
        longest run of words first) replaced by its source name: ``"seat 0 plays Bengale-Occidental"``
        -> ``"seat 0 plays West Bengal"``; a composed name is read whole (``"briquet rouge 3"`` ->
        ``"red lighter 3"``, never word by word).  Punctuation of the line's syntax (``[``, ``]``,
        ``,``, ``{``, ``}``, ``:``) separates names."""
        if not (self.exact or self.patterns or self.loose):
            return line
        return "".join(self._names_in(part) if i % 2 == 0 else part
                       for i, part in enumerate(re.split(r"([\[\]{},:])", line)))

    def _names_in(self, text: str) -> str:
        """``text`` (no punctuation) with its runs of words that are translated names replaced."""
        words = text.split()
        if not words:
            return text
        lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
        out: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(MAX_NAME_WORDS, len(words) - i), 0, -1):
                span = " ".join(words[i:i + n])
                found = self.source(span)
                if found != span:
                    out.append(found)
                    i += n
                    break
            else:
                out.append(words[i])
                i += 1
        return lead + " ".join(out) + trail

    def in_events(self, value: Any) -> Any:
        """``value`` (a log's events, or one of them) with every string that is a translated
        name replaced by its source name; keys, numbers and other strings as they are."""
        if isinstance(value, str):
            return self.source(value)
        if isinstance(value, list):
            return [self.in_events(v) for v in value]
        if isinstance(value, dict):
            return {k: self.in_events(v) for k, v in value.items()}
        return value


def names(content, langs: list[str] | None = None) -> Names:
    """The :class:`Names` of ``content``'s editions in ``langs`` (default: every language it has a
    catalogue for), from their catalogues; entries not translated are left out.

    Raises:
        ContentErrors: a catalogue that cannot be read (:func:`read_catalogue`).
    """
    from deckpress.generator.content.errors import display_path

    owners: dict[str, set[str]] = {}
    templates: dict[str, set[str]] = {}
    for lang in languages(content) if langs is None else langs:
        if lang == source_language(content):
            continue
        path = po_path(content.root, lang)
        for message in read_catalogue(path, display_path(path)) if path.is_file() else []:
            if not message.id or not message.string or not isinstance(message.string, str):
                continue
            source, text = str(message.id), message.string
            if placeholders(source):
                templates.setdefault(text, set()).add(source)
            elif _folded(text) != _folded(source):
                owners.setdefault(_folded(text), set()).add(source)
    sources = {_folded(s) for who in owners.values() for s in who}
    result = Names({name: next(iter(who)) for name, who in owners.items() if len(who) == 1 and name not in sources})
    for text, who in sorted(templates.items(), key=lambda kv: -len(kv[0])):
        if len(who) != 1:
            continue
        parts = re.split(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", " ".join(text.split()))
        if len(parts) < 2:
            continue
        seen: set[str] = set()
        regex = ""
        for i, part in enumerate(parts):
            if i % 2 == 0:
                regex += re.escape(part)
            else:
                regex += f"(?P={part})" if part in seen else f"(?P<{part}>.+?)"
                seen.add(part)
        # a template of placeholders and spaces only matches too much: only names made of translated names
        bare = not any(p.strip() for p in parts[::2])
        (result.loose if bare else result.patterns).append((re.compile(regex, re.IGNORECASE), next(iter(who))))
    return result


@contextmanager
def in_language(content: Any, lang: str | None, allow_missing: bool, warn: Callable[[str], None], variant: Path | None = None) -> Iterator[Any]:
    """Within the block, ``content`` as its ``lang`` edition (unchanged for None), the kit's own
    texts in that language too; warnings written with ``warn``: each fuzzy entry, and how many
    texts fell back to the source with ``allow_missing``.

    Raises:
        ContentErrors: a missing translation without ``allow_missing`` (ONE error listing every
            missing entry and its card), or the catalogue's own errors.
    """
    if not lang:
        yield content
        return
    translated, report = edition(content, lang, variant)
    if report.missing and not allow_missing:
        raise ContentErrors([report.missing_error()])
    for t in report.fuzzy:
        warn(f"warning: {report.po}: the {lang} translation of {t.context} is fuzzy (its source changed): check it and remove the fuzzy flag")
    if report.missing:
        warn(f"{content.game_id}: {len(report.missing)} text{'s' * (len(report.missing) != 1)} printed in the source language "
             f"(no {lang} translation, --allow-missing)")
    with building(report):
        yield translated


def edition_errors(content: Any, lang: str, options: Any, allow_missing: bool = False) -> list[ContentError]:
    """The errors of ``content``'s ``lang`` edition (``all``: of every language it has a catalogue
    for): missing translations, a catalogue's own errors, and
    every card laid out in memory with the translated texts (nothing written), so a text that
    overflows its box in one language is an error naming the card, the field and the language."""
    from deckpress.generator.render.kit import build_kit

    langs = languages(content) if lang == "all" else [lang]
    errors: list[ContentError] = []
    for code in langs:
        try:
            with in_language(content, code, allow_missing, lambda line: None) as edition:
                build_kit(edition, options, write=False)
        except ContentErrors as exc:
            errors += [replace(e, message=f"[{code}] {e.message}") for e in exc.errors]
    return errors
