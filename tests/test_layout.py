"""The layout holds: one folder per stage, no import cycle, every module named in ARCHITECTURE.md,
no class made of mixins (more than one project class as its bases).

No cap on a module's or a class's lines: a cap invited cutting one class across files as mixins
that share its state (issue 33); what is split is split by responsibility, and no class is made of
several linter classes (`test_no_class_inherits_from_more_than_one_linter_class`).

Read from the source with `ast` (nothing is imported), so a violation is named by file and line.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
LINTER = REPO_ROOT / "linter"
CHECKS = REPO_ROOT / "checks"

#: the stage folders of linter/ (ARCHITECTURE.md says what each holds)
STAGES = {"input", "parse", "server", "schema", "rules", "report", "github", "audit", "config"}
MAX_ROOT_MODULES = 8


def _modules() -> dict[str, Path]:
    """The engine's and the rules' modules by dotted name."""
    found = {}
    for path in sorted([*LINTER.rglob("*.py"), *CHECKS.rglob("*.py")]):
        parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


@functools.lru_cache(maxsize=None)
def _parse(source: str) -> ast.Module:
    """A module's tree, parsed once for all the tests here (the 175 modules take ~2 s to parse, and
    six tests read them all). Shared: no test changes a tree."""
    return ast.parse(source)


def _tree(path: Path) -> ast.Module:
    return _parse(path.read_text(encoding="utf-8"))


def _runtime_imports(name: str, path: Path, modules: dict[str, Path]) -> dict[str, int]:
    """The linter and checks modules `name` imports when it runs (module level or inside a function; not
    under `if TYPE_CHECKING:`), each with the line of its first import."""
    tree = _tree(path)
    typing_only = {id(inner) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for statement in node.body for inner in ast.walk(statement)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    found: dict[str, int] = {}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        for target in targets:
            if target.startswith(("linter", "checks")):
                module = resolve(target)
                if module and module != name:
                    found.setdefault(module, node.lineno)
    return found


def test_no_import_cycle_in_linter() -> None:
    """A module of linter/ or checks/ never imports, directly or through others, one that imports
    it: each stage depends only on what comes before it (and on the leaves: record, target,
    findings), and the rules on the engine's model and rule API, never the engine on a rule."""
    modules = _modules()
    graph = {name: _runtime_imports(name, path, modules) for name, path in modules.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    stack: list[str] = []
    cycles: list[str] = []

    def visit(name: str) -> None:
        state[name] = 1
        stack.append(name)
        for target, line in sorted(graph[name].items()):
            if state.get(target) == 1:
                cycle = stack[stack.index(target):] + [target]
                cycles.append(" -> ".join(cycle) + f" (line {line} of {modules[name].relative_to(REPO_ROOT)})")
            elif target not in state:
                visit(target)
        stack.pop()
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_the_parser_imports_nothing_of_the_model_or_the_server() -> None:
    """The parser (`linter.parse`) comes before the model and the server emulator: it builds the
    elements and bodies they hold (`parse.elements`, `parse.body`) and reaches neither."""
    modules = _modules()
    found = [f"{path.relative_to(REPO_ROOT)}:{line}: imports {target}"
             for name, path in modules.items() if name.startswith("linter.parse")
             for target, line in _runtime_imports(name, path, modules).items()
             if target.startswith(("linter.schema", "linter.server"))]
    assert not found, "\n".join(found)


def _private_crossings(modules: dict[str, Path]) -> list[str]:
    """Imports of another module's `_private` names (`from linter.x import _y`), as file:line."""
    found = []
    for name, path in modules.items():
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module != name and not node.level:
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.append(f"{path.relative_to(path.parents[1])}:{node.lineno}: {node.module}.{alias.name}")
    return found


def test_no_module_takes_another_modules_private_names() -> None:
    """A name another module needs is that module's interface, named so (issue 33: 212 imports
    took `_private` names across modules, the mark of one object's state spread over files)."""
    crossings = _private_crossings(_modules())
    assert not crossings, "private names imported across modules:\n" + "\n".join(crossings)


def test_the_private_name_check_sees_a_crossing(tmp_path: Path) -> None:
    files = {"linter.a": "_x = 1\ny = 2\n", "linter.b": "from linter.a import _x, y\n"}
    modules = {}
    for name, text in files.items():
        modules[name] = tmp_path / "pkg" / f"{name}.py"
        modules[name].parent.mkdir(exist_ok=True)
        modules[name].write_text(text)
    assert [c.split(": ", 1)[1] for c in _private_crossings(modules)] == ["linter.a._x"]


def _rule_crossings(modules: dict[str, Path]) -> list[str]:
    """Imports of a rule's module (`checks.<rule>`) from anywhere but the registry (`checks`,
    which lists them): a rule module imports the model and the rule API only, and the engine
    reaches the rules through the registry."""
    found = []
    for name, path in modules.items():
        if name == "checks":
            continue
        for target, line in _runtime_imports(name, path, modules).items():
            if target.startswith("checks."):
                found.append(f"{path.relative_to(path.parents[1])}:{line}: imports {target}")
    return found


def test_no_module_imports_a_rule_module() -> None:
    """A rule never imports another rule (an InnoDB fact several rules need is the model's, a
    judgement or fix text they share is in linter/rules/), and linter/ imports only the registry."""
    crossings = _rule_crossings(_modules())
    assert not crossings, "rule modules imported:\n" + "\n".join(crossings)


def test_the_rule_import_check_sees_a_rule_importing_a_rule(tmp_path: Path) -> None:
    """The check above can fail: a rule importing another rule's helper is found, the registry's
    imports are not."""
    files = {"checks": "from checks.a import A\nALL_CHECKS = [A()]\n", "checks.a": "from checks.b import helper\n",
             "checks.b": "def helper():\n    pass\n", "linter.x": "from checks import ALL_CHECKS\n"}
    modules = {}
    for name, text in files.items():
        modules[name] = tmp_path / f"{name}.py" if name != "checks" else tmp_path / "__init__.py"
        modules[name].write_text(text)
    assert [c.split(": ", 1)[1] for c in _rule_crossings(modules)] == ["imports checks.b"]


def test_the_cycle_check_sees_a_cycle(tmp_path: Path) -> None:
    """The check above can fail: two modules importing each other (one inside a function) are found."""
    modules = {"linter.a": tmp_path / "a.py", "linter.b": tmp_path / "b.py"}
    modules["linter.a"].write_text("from linter.b import x\n")
    modules["linter.b"].write_text("def f():\n    from linter import a\n")
    assert _runtime_imports("linter.a", modules["linter.a"], modules) == {"linter.b": 1}
    assert _runtime_imports("linter.b", modules["linter.b"], modules) == {"linter.a": 2}
    typed = tmp_path / "c.py"
    typed.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from linter.a import x\n")
    assert _runtime_imports("linter.c", typed, {**modules, "linter.c": typed}) == {}


def test_linter_holds_stage_folders_and_few_modules_at_its_root() -> None:
    root_modules = sorted(p.name for p in LINTER.glob("*.py") if p.name != "__init__.py")
    assert len(root_modules) <= MAX_ROOT_MODULES, root_modules
    folders = {p.name for p in LINTER.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == STAGES, folders
    for folder in LINTER.rglob("*"):
        if folder.is_dir() and folder.name != "__pycache__" and any(folder.glob("*.py")):
            assert (folder / "__init__.py").exists(), f"{folder} is not a package: setuptools would leave it out"


def test_every_stage_is_documented_in_architecture_md() -> None:
    text = (REPO_ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    for stage in STAGES:
        assert f"linter/{stage}/" in text, stage
    for path in sorted(LINTER.rglob("*.py")):
        if path.name != "__init__.py":
            rel = path.relative_to(LINTER).as_posix()
            assert rel.rsplit("/", 1)[-1].removesuffix(".py") in text, f"ARCHITECTURE.md does not name linter/{rel}"


# --- migration formats: one home each, registered in one place ------------------------------------

FORMATS_PACKAGE = LINTER / "input" / "migrations" / "formats"
#: format names that are also ordinary words of the code (a TIMESTAMP column, lexical analysis):
#: outside the package they may be words, never a string that is exactly the name (a dispatch)
ORDINARY_NAMES = frozenset({"timestamp", "lexical"})
#: known uses of a format's name that are not the format, with why: (file, the string)
NOT_A_FORMAT = {
    ("linter/input/migrations/laravel_models.py", "goose"),  # Laravel's plural of the noun goose
    ("linter/schema/links.py", "timestamp"),  # a word of a column name: a link's bookkeeping column
}


def _format_modules() -> dict[str, Path]:
    """The modules of the formats package that should each hold one format: its modules, and for a
    format that is a package of its own (its readers inside), that package."""
    found = {}
    for path in sorted(FORMATS_PACKAGE.iterdir()):
        if path.name == "__pycache__" or path.name in ("__init__.py", "base.py"):
            continue
        if path.is_dir() and (path / "__init__.py").exists():
            found[f"linter.input.migrations.formats.{path.name}"] = path / "__init__.py"
        elif path.suffix == ".py":
            found[f"linter.input.migrations.formats.{path.stem}"] = path
    return found


def test_every_format_module_holds_one_registered_format() -> None:
    """Each module of the formats package is one format (its `FORMAT`), in the registry, and the
    registry holds nothing else: the configuration's choices are the registry's names."""
    import importlib
    import typing

    from linter.config.model import MigrationFormat
    from linter.input.migrations.formats import FORMATS, NAMES, named
    from linter.input.migrations.formats.base import Format

    modules = _format_modules()
    registered = {type(f).__module__ for f in FORMATS}
    for name in modules:
        module = importlib.import_module(name)
        fmt = getattr(module, "FORMAT", None)
        assert isinstance(fmt, Format), f"{name} defines no FORMAT"
        assert fmt in FORMATS, f"{name}.FORMAT ({fmt.name}) is not registered in linter/input/migrations/formats/__init__.py"
    assert registered == set(modules), registered ^ set(modules)
    assert len(set(NAMES)) == len(NAMES) and all(named(n).name == n for n in NAMES)
    assert typing.get_args(MigrationFormat) == ("auto", *NAMES)


def _format_words() -> tuple[list[str], frozenset[str]]:
    from linter.input.migrations.formats import NAMES

    return [n for n in NAMES if n not in ORDINARY_NAMES], frozenset(n for n in NAMES if n in ORDINARY_NAMES)


def _named_formats(rel: str, source: str, words: list[str], ordinary: frozenset[str]) -> list[str]:
    """Where a module names a format: an identifier one of whose words (`_goose_section`,
    `LiquibaseFinder`, `golang_migrate`) is a format's name, or a string, other than a docstring or a
    rule's documentation (a `RuleDoc`), that holds one as a word (`"goose"`, `"-- +goose Up"`,
    `"linter.input.migrations.atlas"`, "in Prisma, give it ..."); in linter/, a string that is
    exactly one of the ordinary names. Comments are free."""
    tree = _parse(source)
    documentation: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                documentation.add(id(first.value))
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "RuleDoc":
            documentation.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Constant))
    found = []
    for node in ast.walk(tree):
        names: list[str | None] = []
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.arg):
            names = [node.arg]
        elif isinstance(node, ast.alias):
            names = [node.name, node.asname]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module]
        elif isinstance(node, ast.keyword):
            names = [node.arg]
        for name in filter(None, names):
            snake = "_" + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower().replace(".", "_").strip("_") + "_"
            found += [f"{rel}:{node.lineno}: {name} names {w}" for w in words if f"_{w.replace('-', '_')}_" in snake]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation:
            text = node.value.lower()
            found += [f"{rel}:{node.lineno}: {node.value[:60]!r} names {w}" for w in words
                      if re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", text)
                      and (rel, node.value) not in NOT_A_FORMAT]
            if rel.startswith("linter/") and node.value in ordinary and (rel, node.value) not in NOT_A_FORMAT:
                found.append(f"{rel}:{node.lineno}: {node.value!r} is a format's name")
    return found


def test_no_module_outside_the_formats_package_names_a_format() -> None:
    """A format's knowledge is in its module: the splitter, the planner, the engine, the writers'
    caller, the configuration and the checks ask the registry and name no format."""
    words, ordinary = _format_words()
    found = []
    for path in sorted([*LINTER.rglob("*.py"), *(REPO_ROOT / "checks").rglob("*.py")]):
        if FORMATS_PACKAGE in path.parents:
            continue
        rel = path.relative_to(REPO_ROOT).as_posix()
        found += _named_formats(rel, path.read_text(encoding="utf-8"), words, ordinary)
    assert not found, "formats named outside linter/input/migrations/formats:\n" + "\n".join(found)


def test_the_format_check_sees_a_format_named_in_code() -> None:
    """The check above can fail: a dispatch on a format's name, a helper named after one, a marker
    in a string, a module path, advice in a message; not a comment, a docstring or a rule's doc."""
    source = '''"""Docstrings may say goose and Liquibase."""
import linter.input.migrations.atlas as sums  # comments may say flyway
from linter.input.migrations.formats.goose import Goose
def _goose_section(fmt):
    """goose"""
    if fmt == "golang-migrate":
        return "-- +goose Up\\n"
    doc = RuleDoc(why="read from schema.prisma")
    return LiquibaseFinder, f"in Prisma, run {fmt}", "timestamp"
'''
    found = _named_formats("linter/x.py", source, ["atlas", "liquibase", "flyway", "golang-migrate", "goose", "prisma"],
                           frozenset({"timestamp"}))
    assert sorted(found) == sorted([
        "linter/x.py:2: linter.input.migrations.atlas names atlas",
        "linter/x.py:3: linter.input.migrations.formats.goose names goose",
        "linter/x.py:3: Goose names goose",
        "linter/x.py:4: _goose_section names goose",
        "linter/x.py:6: 'golang-migrate' names golang-migrate",
        "linter/x.py:7: '-- +goose Up\\n' names goose",
        "linter/x.py:9: LiquibaseFinder names liquibase",
        "linter/x.py:9: 'in Prisma, run ' names prisma",
        "linter/x.py:9: 'timestamp' is a format's name",
    ]), found


def _project_classes(modules: dict[str, Path]) -> dict[str, set[str]]:
    """The classes each linter module defines at any depth, by name."""
    return {name: {n.name for n in ast.walk(_tree(path)) if isinstance(n, ast.ClassDef)}
            for name, path in modules.items()}


def _project_bases(name: str, path: Path, classes: dict[str, set[str]]) -> list[tuple[str, int, list[str]]]:
    """Each class of module `name` with its line and those of its bases that are linter classes:
    defined in the module, imported by name from a linter module that defines them
    (`from linter.x import A`, relative or absolute, aliased or not), or named through an
    imported linter module (`x.A`)."""
    tree = _tree(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    known = {n: f"{name}.{n}" for n in classes.get(name, ())}  # a local name -> the linter class it is
    modules: dict[str, str] = {}  # a local name -> the linter module it is
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, base] if base else parent)
            for alias in node.names:
                local = alias.asname or alias.name
                if alias.name in classes.get(base, ()):
                    known[local] = f"{base}.{alias.name}"
                elif f"{base}.{alias.name}" in classes:
                    modules[local] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in classes:
                    modules[alias.asname or alias.name] = alias.name
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = []
        for base in node.bases:
            if isinstance(base, ast.Subscript):  # `Generic[T]`-like: the class subscripted
                base = base.value
            if isinstance(base, ast.Name) and base.id in known:
                bases.append(known[base.id])
            elif isinstance(base, ast.Attribute):
                dotted = ast.unparse(base.value)
                if base.attr in classes.get(modules.get(dotted, dotted), ()):
                    bases.append(f"{modules.get(dotted, dotted)}.{base.attr}")
        found.append((node.name, node.lineno, bases))
    return found


def test_no_class_inherits_from_more_than_one_linter_class() -> None:
    """A class is one thing with its own state: it may refine one linter class (a `Format`, a
    reporter, a record), never put several together. A class made of several project classes is a
    cut into mixins that share one object's attributes, which a size cap once invited (issue 33:
    the splitter was seven of them over 128 attributes); what has state of its own is an object
    the class holds. Classes of the standard library and of other packages do not count."""
    modules = _modules()
    classes = _project_classes(modules)
    found = []
    for name, path in modules.items():
        where = path.relative_to(REPO_ROOT).as_posix()
        for cls, line, bases in _project_bases(name, path, classes):
            if len(bases) > 1:
                found.append(f"{where}:{line}: class {cls}({', '.join(bases)})")
    assert not found, "classes made of several linter classes:\n" + "\n".join(found)


def test_the_inheritance_check_sees_mixins(tmp_path: Path) -> None:
    """The check above can fail: bases imported by name, relatively, through a module, or
    defined beside the class are linter classes; `object`, a generic and other packages' are not."""
    parts = tmp_path / "parts.py"
    parts.write_text("class A:\n    pass\n\n\nclass B:\n    pass\n")
    user = tmp_path / "user.py"
    user.write_text("import enum\nfrom typing import Generic, TypeVar\nfrom linter.pkg.parts import A\n"
                    "from . import parts\nfrom .parts import B as Bee\nT = TypeVar('T')\n\n\n"
                    "class C:\n    pass\n\n\nclass Mixed(A, parts.B):\n    pass\n\n\n"
                    "class Local(C, Bee, object):\n    pass\n\n\nclass One(A, enum.Enum, Generic[T]):\n    pass\n")
    modules = {"linter.pkg.parts": parts, "linter.pkg.user": user}
    found = {cls: bases for cls, _, bases in _project_bases("linter.pkg.user", user, _project_classes(modules))}
    assert found == {"C": [], "Mixed": ["linter.pkg.parts.A", "linter.pkg.parts.B"],
                     "Local": ["linter.pkg.user.C", "linter.pkg.parts.B"], "One": ["linter.pkg.parts.A"]}
