import ast
import pathlib
import sys

import pytest

import widgetkit

PACKAGE = pathlib.Path(widgetkit.__file__).parent
PYPROJECT = PACKAGE.parent / "pyproject.toml"


@pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib arrived in Python 3.11")
def test_the_distribution_is_this_package_at_its_version_with_no_dependencies():
    import tomllib
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))
    assert project["project"]["name"] == "widgetkit"
    assert project["project"]["version"] == widgetkit.__version__
    assert project["project"]["dependencies"] == []
    assert project["tool"]["setuptools"]["packages"] == ["widgetkit"]


@pytest.mark.skipif(sys.version_info < (3, 10), reason="sys.stdlib_module_names arrived in Python 3.10")
def test_every_module_imports_only_the_standard_library_and_itself():
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                assert root == "__future__" or root in sys.stdlib_module_names, "%s imports %s" % (path.name, name)


def test_everything_exported_exists():
    for name in widgetkit.__all__:
        assert hasattr(widgetkit, name), name
