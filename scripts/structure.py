"""`make structure`: the measurements of the code's structure, and a failure when one slips.

The import graph is grimp's (what import-linter reads): every module of apps/ and config/ a node,
every import an edge, imports inside functions and under TYPE_CHECKING included.

- circles: groups of modules that import each other round (strongly connected components of
  more than one module).
- imports running back up: draw the graph in floors, a module above what it imports. Outside the
  circles that always works; inside a circle some import must point up. We count, for each
  circle, the fewest imports that point up in the best order of its modules (exact for a circle
  of up to 16 modules; for a larger one, every import inside it, an upper bound). 0 exactly when
  there is no circle.
- ignored imports: the imports that the import-linter contracts (pyproject.toml
  [tool.importlinter]) let through by their ignore_imports, each pattern expanded to the imports
  it matches today (grimp's own matching, as import-linter does), counted once, between two apps
  or inside one.
- mutual app pairs: two apps that each import the other (told, not judged: the contracts judge).
- ignore_errors modules: modules that mypy's overrides exempt from every error.

It also fails when an app under apps/ is on no floor of the layers contract: such an app would
escape every rule.
"""

import sys
import tomllib
from collections import defaultdict
from pathlib import Path
from typing import Any

import grimp

# The most each measurement may be. Lower a number when the code gets better; never raise one.
# Circles, imports running back up and ignored imports are all 0 today; an exception that ever
# seems needed is named in pyproject.toml with its reason, and counted here.
# ignore_errors modules: modules exempt from mypy's strict flags; none is.
MAX_CIRCLES = 0
MAX_BACK_UP_IMPORTS = 0
MAX_IGNORED_IMPORTS = 0
MAX_IGNORE_ERRORS_MODULES = 0

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("apps", "config")


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(group)
    return found


def fewest_upward(group: set[str], edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports inside `group` that point up when its modules are put in the order with the
    fewest such imports (dynamic programming over subsets: `best[placed]` is the fewest for the
    modules `placed` on the top floors; the next module down adds its imports into them)."""
    inside = sorted((a, b) for a in group for b in edges[a] & group)
    nodes = sorted(group)
    if len(nodes) > 16:
        return inside
    bit = {node: 1 << i for i, node in enumerate(nodes)}
    out = [sum(bit[b] for b in edges[a] & group) for a in nodes]
    best: dict[int, tuple[int, int]] = {0: (0, -1)}  # placed -> (fewest, the module placed last)
    for placed in range(1 << len(nodes)):
        if placed not in best:
            continue
        cost = best[placed][0]
        for i in range(len(nodes)):
            if not placed & (1 << i):
                step = (cost + bin(out[i] & placed).count("1"), i)
                key = placed | (1 << i)
                if key not in best or step[0] < best[key][0]:
                    best[key] = step
    order, placed = [], (1 << len(nodes)) - 1
    while placed:
        last = best[placed][1]
        order.append(nodes[last])
        placed &= ~(1 << last)
    floor = {node: n for n, node in enumerate(reversed(order))}  # 0 is the top floor
    return [(a, b) for a, b in inside if floor[b] < floor[a]]


def app_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def measure(graph: grimp.ImportGraph, pyproject: dict[str, Any]) -> dict[str, Any]:
    edges: dict[str, set[str]] = defaultdict(set)
    for module in graph.modules:
        edges[module] |= set(graph.find_modules_directly_imported_by(module)) - {module}
    circles = strongly_connected(edges)
    back_up = sorted(pair for group in circles for pair in fewest_upward(group, edges))

    contracts = pyproject["tool"]["importlinter"]["contracts"]
    ignored: set[tuple[str, str]] = set()
    for contract in contracts:
        for expression in contract.get("ignore_imports", []):
            for match in graph.find_matching_direct_imports(import_expression=expression):
                ignored.add((match["importer"], match["imported"]))

    app_edges = {(app_of(a), app_of(b)) for a, targets in edges.items() for b in targets if a.startswith("apps.")}
    app_edges = {(a, b) for a, b in app_edges if a != b and b.startswith("apps.")}
    mutual = sorted({tuple(sorted(pair)) for pair in app_edges if pair[::-1] in app_edges})

    ignore_errors = set()
    for override in pyproject["tool"]["mypy"].get("overrides", []):
        if override.get("ignore_errors"):
            modules = override["module"]
            ignore_errors |= {modules} if isinstance(modules, str) else set(modules)

    on_floors = set()
    for contract in contracts:
        for layer in contract.get("layers", []):
            on_floors |= {name.strip() for name in layer.replace("|", ":").split(":")}
    apps = {app_of(module) for module in graph.modules if module.count(".") >= 1 and module.startswith("apps.")}
    return {
        "circles": circles,
        "back_up": back_up,
        "ignored": sorted(ignored),
        "mutual": mutual,
        "ignore_errors": sorted(ignore_errors),
        "off_floors": sorted(apps - on_floors),
    }


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    sys.path.insert(0, str(ROOT))  # grimp finds the packages on the path
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    with open(ROOT / "pyproject.toml", "rb") as file:
        found = measure(graph, tomllib.load(file))

    rows = [
        ("circles", len(found["circles"]), MAX_CIRCLES),
        ("imports running back up", len(found["back_up"]), MAX_BACK_UP_IMPORTS),
        ("ignored imports", len(found["ignored"]), MAX_IGNORED_IMPORTS),
        ("mypy ignore_errors modules", len(found["ignore_errors"]), MAX_IGNORE_ERRORS_MODULES),
        ("apps on no floor of the layers", len(found["off_floors"]), 0),
    ]
    failed = False
    for name, value, limit in rows:
        over = value > limit
        failed |= over
        print(f"{name:32} {value:4}   (at most {limit}){'   TOO MANY' if over else ''}")
    print(f"{'mutual app pairs':32} {len(found['mutual']):4}   " + ", ".join(f"{a}<->{b}" for a, b in found["mutual"]))
    for group in found["circles"]:
        print("  circle: " + " <-> ".join(sorted(group)))
    for app in found["off_floors"]:
        print(f"  on no floor: {app} (add it to the layers contract in pyproject.toml)")
    if verbose:
        for importer, imported in found["back_up"]:
            print(f"  back up: {importer} -> {imported}")
        for importer, imported in found["ignored"]:
            print(f"  ignored: {importer} -> {imported}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
