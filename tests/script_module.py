"""A script of scripts/ as a module, for the tests that check its figures (the scripts folder
is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def script_module(name: str) -> ModuleType:
    """scripts/`name`.py, loaded once per process and registered in sys.modules (its
    dataclasses look their module up there)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
