"""The import rules of docs/architecture.md, checked over the package's import graph.

Data flows one way (docs/architecture.md, "Import rules"): the rules engines read the content layer
and never import printing, exports, the CLI, check, sweep or the studio; nothing imports the CLI but
the CLI itself (the ``deckpress`` command's entry point is ``deckpress.generator.cli:main``); the
content layer imports neither the engines nor the print kit, rendering or exports.

Every module of the package is parsed with :mod:`ast` (nothing is imported or run), and every
import statement counts: at module level, inside a function, under ``if TYPE_CHECKING``.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "deckpress"
# The package's code lives in these top-level folders (content/ and schemas/ are data).
CODE_FOLDERS = ("generator", "rules")


@dataclass(frozen=True)
class Rule:
    """Modules under any of ``importers`` must not import a module under any of ``forbidden``
    (names are dotted prefixes: ``deckpress.generator.render`` covers its submodules);
    ``exempt`` importers are allowed anyway."""

    name: str
    importers: tuple[str, ...]
    forbidden: tuple[str, ...]
    exempt: tuple[str, ...] = ()


RULES = (
    Rule("engines never import printing, exports, the CLI, check, sweep or the studio",
         importers=("deckpress.rules",),
         forbidden=tuple(f"deckpress.generator.{p}" for p in ("render", "export", "cli", "check", "sweep", "kit", "studio"))),
    Rule("nothing imports the CLI",
         importers=("deckpress",),
         forbidden=("deckpress.generator.cli",),
         exempt=("deckpress.generator.cli",)),
    Rule("the content layer never imports the engines, the print kit, rendering or exports",
         importers=("deckpress.generator.content",),
         forbidden=("deckpress.rules", "deckpress.generator.render", "deckpress.generator.kit", "deckpress.generator.export")),
)


def under(module: str, prefix: str) -> bool:
    """Whether dotted ``module`` is ``prefix`` or inside it."""
    return module == prefix or module.startswith(prefix + ".")


def module_name(path: Path, root: Path) -> str:
    """``generator/render/elements.py`` -> ``deckpress.generator.render.elements``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def imported_names(path: Path, root: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, with its line: ``import a.b``, ``from a import b`` (both
    ``a`` and ``a.b``, since ``b`` may be a submodule), relative imports resolved, at any depth."""
    this = module_name(path, root)
    package = this if path.name == "__init__.py" else this.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names if alias.name != "*"]
    return found


def import_violations(root: Path, folders: tuple[str, ...] = CODE_FOLDERS, rules: tuple[Rule, ...] = RULES) -> list[str]:
    """``file:line: importer imports target (rule)`` for every import in the package at ``root``
    (its modules in ``folders`` and its ``__init__.py``) that breaks one of ``rules``."""
    paths = [root / "__init__.py"] if (root / "__init__.py").exists() else []
    for folder in folders:
        paths += sorted((root / folder).rglob("*.py"))
    out: dict[tuple[str, int, str], str] = {}
    for path in paths:
        importer = module_name(path, root)
        where = path.relative_to(root).as_posix()
        for line, target in imported_names(path, root):
            for rule in rules:
                if ((where, line, rule.name) not in out  # one report per statement and rule
                        and any(under(importer, p) for p in rule.importers)
                        and not any(under(importer, p) for p in rule.exempt)
                        and any(under(target, p) for p in rule.forbidden)):
                    out[where, line, rule.name] = f"{where}:{line}: {importer} imports {target} ({rule.name})"
    return sorted(out.values())


@pytest.mark.slow
def test_the_package_keeps_its_import_rules():
    assert import_violations(ROOT) == []


def test_the_checker_sees_every_module_of_the_package():
    # a checker that parsed nothing would pass: it must see the engines, the content layer and the CLI
    names = {module_name(p, ROOT) for f in CODE_FOLDERS for p in (ROOT / f).rglob("*.py")}
    assert {"deckpress.rules.core.registry", "deckpress.generator.content.csvfile", "deckpress.generator.cli"} <= names


def synthetic_package(tmp_path: Path, files: dict[str, str]) -> Path:
    """A package tree at ``tmp_path`` with ``files`` (relative path -> source) and empty
    ``__init__.py`` files in every folder."""
    for relative, source in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, "utf-8")
    for folder in [tmp_path, *(p for p in tmp_path.rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    return tmp_path


@pytest.mark.parametrize("source", [
    "from deckpress.generator.render.elements import draw\n",
    "import deckpress.generator.render\n",
    "from deckpress.generator import render\n",
    "def f():\n    from deckpress.generator.render import text\n    return text\n",  # in a function
    "from ...generator.render import elements\n",  # relative, from rules/fifty_missions/
])
def test_an_engine_importing_the_renderer_is_caught(tmp_path, source):
    root = synthetic_package(tmp_path, {"rules/fifty_missions/state.py": source, "generator/render/elements.py": ""})
    violations = import_violations(root)
    assert len(violations) >= 1
    assert violations[0].startswith("rules/fifty_missions/state.py:")
    assert "deckpress.generator.render" in violations[0] and "engines never import" in violations[0]


def test_importing_the_cli_is_caught_outside_the_cli_only(tmp_path):
    root = synthetic_package(tmp_path, {
        "generator/studio/app.py": "from deckpress.generator.cli.options import seed\n",
        "generator/cli/replay.py": "from deckpress.generator.cli.options import seed\n",
        "generator/content/gate.py": "def f():\n    import deckpress.rules.core.registry\n",
    })
    assert import_violations(root) == [
        "generator/content/gate.py:2: deckpress.generator.content.gate imports deckpress.rules.core.registry"
        " (the content layer never imports the engines, the print kit, rendering or exports)",
        "generator/studio/app.py:1: deckpress.generator.studio.app imports deckpress.generator.cli.options (nothing imports the CLI)",
    ]


def test_an_engine_reading_the_content_layer_is_allowed(tmp_path):
    root = synthetic_package(tmp_path, {"rules/core/registry.py": "from deckpress.generator.content import load_game\n"})
    assert import_violations(root) == []
