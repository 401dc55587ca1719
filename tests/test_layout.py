"""The layout holds: one folder per stage, no import cycle, every module named in ARCHITECTURE.md.

No cap on a module's or a class's lines: a cap invited cutting one class across files as mixins
that share its state (issue 33); what is split is split by responsibility.

Read from the source with `ast` (nothing is imported), so a violation is named by file and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
LINTER = REPO_ROOT / "linter"

#: the stage folders of linter/ (ARCHITECTURE.md says what each holds)
STAGES = {"input", "parse", "server", "schema", "rules", "report", "github", "audit", "config"}
MAX_ROOT_MODULES = 8


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(LINTER.rglob("*.py")):
        parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _runtime_imports(name: str, path: Path, modules: dict[str, Path]) -> dict[str, int]:
    """The linter modules `name` imports when it runs (module level or inside a function; not
    under `if TYPE_CHECKING:`), each with the line of its first import."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            node.body = []
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    found: dict[str, int] = {}
    for node in ast.walk(tree):
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
            if target.startswith("linter"):
                module = resolve(target)
                if module and module != name:
                    found.setdefault(module, node.lineno)
    return found


def test_no_import_cycle_in_linter() -> None:
    """A module never imports, directly or through others, one that imports it: each stage
    depends only on what comes before it (and on the leaves: record, target, findings)."""
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
