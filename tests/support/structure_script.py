"""scripts/structure.py (`make structure`) loaded as a module, for the tests that use its graph
functions (scripts/ is not a package: it is run by make)."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "structure.py"
_spec = importlib.util.spec_from_file_location("structure", SCRIPT)
assert _spec is not None and _spec.loader is not None
structure = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(structure)
