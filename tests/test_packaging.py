"""The package as a release publishes it (issue 35): `python -m build` makes the sdist and the
wheel from a copy of the tree (as a clean checkout of the tag holds it), the wheel is installed
into a fresh virtual environment, and the `innolint` it installs prints its version and lints
the bundled examples, importing its own copy, not this checkout. The metadata a package index
shows is checked against the one source of each fact: the version is linter/__init__.py's (and
CHANGELOG.md's newest section), the license file is there, the console script is innolint.

The build runs isolated, as a release does, and fetches setuptools from the package index; when
the index cannot be reached outside CI the test skips with one line (under CI it fails)."""

from __future__ import annotations

import email
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from linter import __version__

ROOT = Path(__file__).resolve().parent.parent


def _tree_copy(destination: Path) -> Path:
    """The files git would check out (tracked and new, not ignored): what a tag's clone holds."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    return destination


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("build", reason="the `build` package (the test extra) is not installed")
    source = _tree_copy(tmp_path_factory.mktemp("innolint-source"))
    dist = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        output = done.stdout + done.stderr
        if not os.environ.get("CI") and re.search(r"(?i)no matching distribution|connection|network|resolve", output):
            pytest.skip("python -m build could not fetch setuptools from the package index")
        raise AssertionError(output[-4000:])
    (wheel,) = dist.glob("*.whl")
    (sdist,) = dist.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist, "source": source}


def test_the_wheel_and_the_sdist_carry_the_release(built: dict[str, Path]) -> None:
    wheel, sdist = built["wheel"], built["sdist"]
    assert wheel.name == f"innolint-{__version__}-py3-none-any.whl"
    assert sdist.name == f"innolint-{__version__}.tar.gz"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = email.message_from_bytes(archive.read(f"innolint-{__version__}.dist-info/METADATA"))
        entry_points = archive.read(f"innolint-{__version__}.dist-info/entry_points.txt").decode()
    assert {n.split("/", 1)[0] for n in names} == {"linter", "checks", f"innolint-{__version__}.dist-info"}
    assert "linter/cli.py" in names and "checks/__init__.py" in names
    assert not [n for n in names if "__pycache__" in n or n.startswith("tests/")]
    assert metadata["Version"] == __version__ and metadata["License-Expression"] == "Apache-2.0"
    assert metadata["Requires-Python"] == ">=3.10" and metadata["Description-Content-Type"] == "text/markdown"
    assert "# innolint" in (metadata.get_payload() or "")  # the README is the long description
    urls = dict(u.split(", ", 1) for u in metadata.get_all("Project-URL"))
    assert set(urls) >= {"Repository", "Changelog", "Documentation"} and all(u.startswith("https://") for u in urls.values())
    assert "innolint = linter.cli:run" in entry_points
    assert any(c.startswith("Programming Language :: Python :: 3") for c in metadata.get_all("Classifier"))
    with tarfile.open(sdist) as archive:
        members = {m.name.split("/", 1)[1] for m in archive.getmembers() if "/" in m.name}
    assert {"LICENSE", "README.md", "CHANGELOG.md", "pyproject.toml", "examples/shop.sql", "linter/cli.py"} <= members


def test_the_installed_wheel_runs_in_a_fresh_virtual_environment(built: dict[str, Path], tmp_path: Path) -> None:
    import site
    import sysconfig

    venv = tmp_path / "venv"
    # no pip of its own (ensurepip is ~7 CPU seconds): this interpreter's pip installs into it (`--python`)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    # the dependencies (sqlglot, pydantic, ...) come from this interpreter's site-packages, named
    # in a .pth file after the environment's own site-packages (where the wheel goes, first on the
    # path), so the test needs no index; a .pth line only adds a directory, so the .pth files in
    # it (an editable install's finder of this checkout) do not run
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             check=True, capture_output=True, text=True, timeout=120).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"], *site.getsitepackages()}
    Path(purelib, "innolint-test-dependencies.pth").write_text("".join(f"{d}\n" for d in sorted(ours) if os.path.isdir(d)))
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", "--no-index",
                    "--disable-pip-version-check", str(built["wheel"])], check=True, timeout=600)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples")
    innolint = venv / "bin" / "innolint"
    where = subprocess.run([str(python), "-c", "import linter, checks; print(linter.__file__); print(checks.__file__)"],
                           cwd=work, env=env, capture_output=True, text=True, check=True, timeout=120).stdout.split()
    assert all(str(Path(p).resolve()).startswith(str(venv.resolve()) + os.sep) for p in where), where
    version = subprocess.run([str(innolint), "--version"], cwd=work, env=env, capture_output=True, text=True,
                             check=False, timeout=120)
    assert version.returncode == 0 and version.stdout.strip() == f"innolint {__version__}", version.stdout + version.stderr
    checked = subprocess.run([str(innolint), "check", "examples/"], cwd=work, env=env, capture_output=True, text=True,
                             check=False, timeout=300)
    assert checked.returncode == 1, checked.stdout + checked.stderr  # the examples hold one case of every problem
    assert re.search(r"^\d+ findings \(\d+ errors?, \d+ warnings?, \d+ info\), 0 diagnostics; 3 files", checked.stdout, re.M)
    assert "examples/shop.sql:17:1: warning [no-primary-key]" in checked.stdout
    passing = subprocess.run([str(innolint), "check", "--fail-level", "none", "examples/"], cwd=work, env=env,
                             capture_output=True, text=True, check=False, timeout=300)
    assert passing.returncode == 0  # the README's quick start


def test_the_version_has_one_source() -> None:
    """pyproject reads the version from linter/__init__.py; CHANGELOG.md's newest section is that
    version; the README and the pre-commit page install that tag."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "linter.__version__"}
    newest = re.search(r"(?m)^## \[(\d+\.\d+\.\d+)\]", (ROOT / "CHANGELOG.md").read_text())
    assert newest is not None and newest.group(1) == __version__
    tag = f"v{__version__}"
    readme = (ROOT / "README.md").read_text()
    assert f"git+https://github.com/innolint/innolint@{tag}" in readme and f"rev: {tag}" in readme
    assert f"# {tag}" in readme  # the action's pinned commit says which tag it is
    assert f"rev: {tag}" in (ROOT / "docs" / "pre-commit.md").read_text()
