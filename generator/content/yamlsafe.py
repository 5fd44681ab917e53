"""The one YAML loader of deckpress, hardened for untrusted files.

What it guarantees (hazards in ``docs/untrusted-input.md``):

* **Size and depth limits** checked before anything is built: ``max_bytes`` on the raw file,
  ``max_depth`` on the *event stream* (so PyYAML never recurses deeply), ``max_nodes`` in all.
* **No anchors, aliases or tags**: an alias bomb or a ``!!python/object`` is an error, not a load.
* **JSON-style scalars only**: ``true``/``false``, ``null``, JSON integers and floats; everything
  else is a string.  So ``NO`` stays ``"NO"``, ``1:20`` stays ``"1:20"``, ``010`` stays ``"010"``.
* **Duplicate keys rejected**, naming both lines.  Keys must be strings.
* **Positions kept**: every value's and every key's line and column, by document path, so that
  schema and semantic errors can point at ``file:line:column``.

Nothing here raises for bad input: :func:`load_yaml` returns the errors it found.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from deckpress.generator.content import gate, safetext
from deckpress.generator.content.errors import ContentError

#: Default limits.  A shipped content file is ~30 KB; these leave ample room for real content.
MAX_BYTES = gate.MAX_FILE_BYTES
MAX_DEPTH = 32
MAX_NODES = 200_000

_JSON_INT = re.compile(r"^-?(?:0|[1-9][0-9]*)$")
_JSON_FLOAT = re.compile(r"^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?$")
_MAX_NUMBER_CHARS = 40  # longer digit strings stay errors, never 4,300-digit integers

PathKey = tuple  # a path into the document: keys (str) and list indices (int)
#: Lines of raw control characters reported one by one before the rest are counted in one error.
_MAX_RAW_LINES = 1000


def dotted(path: PathKey) -> str:
    """``('states', 3, 'values')`` as ``states[3].values``; the root as ``(top level)``.  Each key is
    a short escaped excerpt (keys come from the file, and may be long or hold anything)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{safetext.excerpt(part, 40)}" if out else safetext.excerpt(part, 40))
    return out or "(top level)"


class _JsonScalarLoader(yaml.SafeLoader):
    """SafeLoader (pure Python) that resolves no implicit YAML 1.1 types: every plain scalar is
    tagged ``str`` here and typed by :func:`_scalar` with JSON's grammar."""


_JsonScalarLoader.yaml_implicit_resolvers = {}

#: The libyaml loader (:class:`_CJsonScalarLoader`), or None when PyYAML is built without libyaml:
#: the pure-Python loader then does it all.
_FastJsonScalarLoader: type | None = None

if getattr(yaml, "__with_libyaml__", False):
    class _CJsonScalarLoader(yaml.CSafeLoader):
        """:class:`_JsonScalarLoader` on libyaml's C parser: the same nodes and positions, several
        times faster (the studio re-reads a file at every save).  Used only for files it reads
        without any problem; anything else is read again by the pure-Python loader, whose messages
        the plain hints (:data:`_HINTS`) know."""

    _CJsonScalarLoader.yaml_implicit_resolvers = {}
    _FastJsonScalarLoader = _CJsonScalarLoader


@dataclass
class Document:
    """A parsed content file: its plain data and where each part of it stands.

    ``data`` holds only dict/list/str/int/float/bool/None.  ``positions`` maps a document path
    (a tuple of keys and indices; ``()`` is the root) to the 1-based ``(line, column)`` of that
    value; ``key_positions`` maps a mapping entry's path to the position of its key.
    ``origins`` maps a path to ``(file, line, column)`` in *another* file: a document merged from
    a base and a variant reports errors in the variant's parts at the variant's lines.
    ``first_line`` is the file's first line (where an editor's ``$schema`` modeline stands).
    """

    path: Path
    data: Any
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    display: str = ""
    origins: dict[PathKey, tuple[str, int, int]] = field(default_factory=dict)
    first_line: str = ""

    def where(self, path: PathKey, key: bool = False) -> tuple[int, int]:
        """Line and column of ``path``; the nearest enclosing value's if ``path`` is not there
        (for example a missing property reports at its parent mapping)."""
        table = self.key_positions if key else self.positions
        p = tuple(path)
        while p:
            if p in table:
                return table[p]
            if p in self.positions:
                return self.positions[p]
            p = p[:-1]
        return self.positions.get((), (1, 1))

    def error(self, path: PathKey, message: str, key: bool = False) -> ContentError:
        """A :class:`ContentError` located at ``path`` in this document (or in the file that
        ``path``'s nearest entry in ``origins`` came from)."""
        p = tuple(path)
        while self.origins:
            if p in self.origins:
                return ContentError(*self.origins[p], message)
            if not p:
                break
            p = p[:-1]
        line, col = self.where(path, key)
        return ContentError(self.display or str(self.path), line, col, message)


def load_yaml(
    path: Path,
    display: str | None = None,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    text: str | None = None,
    root: Path | None = None,
) -> tuple[Document | None, list[ContentError]]:
    """Load one YAML file safely.

    Args:
        path: the file (read as UTF-8 unless ``text`` is given), through
            :func:`deckpress.generator.content.gate.read_text`: a regular file, size checked before
            reading, the read bounded by ``max_bytes``.
        display: how the path is named in errors (default: ``str(path)``).
        max_bytes, max_depth, max_nodes: limits; exceeding one is an error, never a crash.
        root: the folder the file must lie in once links are followed (a game's or a variant's
            folder); None for no such check.

    Returns:
        ``(document, [])`` on success, or ``(None, errors)`` listing every problem found
        (YAML syntax stops at the first syntax error, since nothing after it is reliable;
        duplicate keys and scalar problems are all reported).
    """
    shown = display or str(path)
    if text is None:
        try:
            text = gate.read_text(Path(path), root, max_bytes)
        except gate.GateError as exc:
            return None, [ContentError(shown, exc.line, exc.column, f"file {exc}")]
    elif len(text.encode("utf-8")) > max_bytes:
        return None, [ContentError(shown, 0, 0, f"file is larger than the limit of {max_bytes:,} bytes")]

    node = _fast_compose(text, shown, max_depth)
    if node is None:
        errors = _scan_events(text, shown, max_depth)
        if errors:
            return None, errors
        try:
            node = yaml.compose(text, Loader=_JsonScalarLoader)
        except yaml.YAMLError as exc:
            return None, [_yaml_error(shown, exc)]
    doc = Document(path=path, data=None, display=shown, first_line=text.split("\n", 1)[0])
    builder = _Builder(doc, max_nodes)
    doc.data = builder.build(node, ()) if node is not None else None
    if builder.errors:
        return None, builder.errors
    return doc, []


def _fast_compose(text: str, shown: str, max_depth: int):
    """The file's root node read with libyaml (:data:`_FastJsonScalarLoader`) when it has no
    problem at all, else None: the caller then reads it with the pure-Python loader, which
    reports every problem in the words the hints know.  None also when libyaml is missing or
    the file is empty."""
    if _FastJsonScalarLoader is None:
        return None
    try:
        if _scan_events(text, shown, max_depth, _FastJsonScalarLoader):
            return None
        return yaml.compose(text, Loader=_FastJsonScalarLoader)
    except yaml.YAMLError:
        return None


#: Plain hints for PyYAML's parser messages, by a fragment of the message.
_HINTS = (
    ("found character '\\t'", "a tab: YAML indents with spaces only, so replace the tab with spaces"),
    ("expected <block end>", "this line's indentation does not line up with the lines above it: check its spaces"),
    ("mapping values are not allowed", "a ':' inside a value: put the value in quotes (\"like: this\")"),
    ("could not find expected ':'", "a line without 'key: value', or a value broken over lines: quote it or join the lines"),
    ("found unexpected end of stream", "a quote or bracket is opened and never closed"),
    ("while scanning a quoted scalar", "a quote is opened and never closed"),
    ("found undefined alias", "'*' starts an alias: put the value in quotes"),
    ("found character '@' that cannot start any token", "'@' cannot start a value: put the value in quotes"),
    ("found character '`' that cannot start any token", "'`' cannot start a value: put the value in quotes"),
)


def _yaml_error(shown: str, exc: yaml.YAMLError, text: str | None = None) -> ContentError:
    """One located error for a YAML error: a plain hint where one is known (:data:`_HINTS`).
    ``text`` (the file's text) locates a character YAML cannot read at its line and column."""
    if isinstance(exc, yaml.reader.ReaderError):
        code = exc.character if isinstance(exc.character, int) else ord(exc.character)
        line, col = _line_col(text, exc.position) if text is not None else (0, 0)
        return ContentError(shown, line, col, f"YAML cannot read the character U+{code:04X} ({exc.reason}): remove it")
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    context = getattr(exc, "context", None)
    raw = f"{problem} {context or ''}"
    hint = next((h for fragment, h in _HINTS if fragment in raw), None)
    msg = f"YAML syntax error: {hint}" if hint else f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
    if mark is None:
        return ContentError(shown, 0, 0, msg)
    return ContentError(shown, mark.line + 1, mark.column + 1, msg)


def _line_col(text: str, position: int) -> tuple[int, int]:
    """The 1-based line and column of character ``position`` of ``text`` (lines end at ``\\n``,
    as editors count them)."""
    return text.count("\n", 0, position) + 1, position - text.rfind("\n", 0, position)


def _raw_controls(text: str, shown: str) -> list[ContentError]:
    """Raw control characters in the text, which YAML cannot read (it stops at the first): one
    error per line that holds any, at the first one's column, naming every refused character of
    that line (bidirectional controls too), so that all of them are reported in one run.  Lines
    past the first :data:`_MAX_RAW_LINES` are counted in one more error.  Linear in the text."""
    errors: list[ContentError] = []
    lines, line, last = 0, 1, 0
    match = safetext.CONTROLS.search(text)
    while match:
        start = match.start()
        line += text.count("\n", last, start)
        line_start, line_end = text.rfind("\n", 0, start) + 1, text.find("\n", start)
        line_end = len(text) if line_end < 0 else line_end
        lines += 1
        if lines <= _MAX_RAW_LINES:
            message = safetext.refusal(text[line_start:line_end])
            assert message is not None, "safetext.CONTROLS matches only characters that safetext.refusal names"
            errors.append(ContentError(shown, line, start - line_start + 1, message))
        last = start
        match = safetext.CONTROLS.search(text, line_end)
    if lines > _MAX_RAW_LINES:
        errors.append(ContentError(shown, 0, 0, f"control characters on {lines - _MAX_RAW_LINES:,} more lines: {safetext.REFUSAL}"))
    return errors


def _scan_events(text: str, shown: str, max_depth: int, loader: type = _JsonScalarLoader) -> list[ContentError]:
    """Walk the event stream (no recursion, nothing built) to enforce depth, forbid anchors,
    aliases and explicit tags, and allow a single document.  Raw control characters are looked
    for first: YAML refuses them at the first one, and each is reported at its line."""
    if safetext.CONTROLS.search(text):
        return _raw_controls(text, shown)
    errors: list[ContentError] = []
    depth = 0
    documents = 0
    try:
        for event in yaml.parse(text, Loader=loader):
            mark = event.start_mark
            where = (mark.line + 1, mark.column + 1)
            if isinstance(event, yaml.AliasEvent):
                errors.append(ContentError(shown, *where, f"YAML alias '*{safetext.excerpt(event.anchor)}' is not allowed: write the value out in full"))
                continue
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    errors.append(ContentError(shown, *where, "only one YAML document per file is allowed"))
                    return errors
            anchor = getattr(event, "anchor", None)
            if anchor is not None:
                errors.append(ContentError(shown, *where, f"YAML anchor '&{safetext.excerpt(anchor)}' is not allowed: write the value out in full"))
            tag = getattr(event, "tag", None)
            if tag is not None:
                errors.append(ContentError(shown, *where, f"YAML tag '{safetext.excerpt(tag)}' is not allowed: plain values only"))
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > max_depth:
                    errors.append(ContentError(shown, *where, f"nesting is deeper than the limit of {max_depth} levels"))
                    return errors
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        errors.append(_yaml_error(shown, exc, text))
    return errors


class _Builder:
    """Turns a composed node tree into plain data, recording positions and collecting errors."""

    def __init__(self, doc: Document, max_nodes: int):
        self.doc = doc
        self.max_nodes = max_nodes
        self.count = 0
        self.errors: list[ContentError] = []

    def _err(self, node: yaml.Node, message: str) -> None:
        self.errors.append(ContentError(self.doc.display, node.start_mark.line + 1, node.start_mark.column + 1, message))

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        self.count += 1
        if self.count > self.max_nodes:
            if self.count == self.max_nodes + 1:
                self._err(node, f"more than {self.max_nodes:,} values in one file")
            return None
        self.doc.positions[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            out: dict[str, Any] = {}
            first_line: dict[str, int] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    self._err(key_node, "mapping keys must be plain strings")
                    continue
                key = key_node.value
                self._refuse_characters(key_node, key, path + (key,))
                if key in first_line:
                    self._err(key_node, f"duplicate key '{safetext.excerpt(key, 40)}' (first defined on line {first_line[key]}): each key may appear once")
                    continue
                first_line[key] = key_node.start_mark.line + 1
                self.doc.key_positions[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                out[key] = self.build(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        return self._scalar(node, path)

    def _refuse_characters(self, node: yaml.Node, text: str, path: PathKey) -> None:
        """An error at ``node`` when ``text`` (a key or a value, at ``path``) holds control
        characters or bidirectional overrides, naming each of them."""
        problem = safetext.refusal(text)
        if problem:
            self._err(node, f"{dotted(path)}: {problem}")

    def _scalar(self, node: yaml.ScalarNode, path: PathKey) -> Any:
        value = node.value
        self._refuse_characters(node, value, path)
        if node.style:  # quoted or block scalar: always a string (a plain one is None, or "" from libyaml)
            return value
        if value in ("", "~", "null"):
            return None
        if value == "true":
            return True
        if value == "false":
            return False
        if len(value) <= _MAX_NUMBER_CHARS:
            if _JSON_INT.match(value):
                return int(value)
            if _JSON_FLOAT.match(value):
                number = float(value)
                if math.isinf(number):  # 1e400: past the largest float, it would read as infinity
                    self._err(node, f"{dotted(path)}: {value} is too large a number (at most about 1.8e308)")
                    return None
                return number
        elif _JSON_FLOAT.match(value):
            self._err(node, f"number with {len(value)} characters is too long (at most {_MAX_NUMBER_CHARS})")
            return None
        return value
