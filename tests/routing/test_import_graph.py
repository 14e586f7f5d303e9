"""Routing depends on sessions, never the reverse, and neither has a circle of imports inside it
(the layers contract in pyproject.toml says the first between apps; this says it module by module,
with imports inside functions counted, as grimp reads them)."""

import grimp

PACKAGES = ("apps.sessions", "apps.routing")


def _circles(graph: grimp.ImportGraph, modules: set[str]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    edges = {
        module: [other for other in graph.find_modules_directly_imported_by(module) if other in modules]
        for module in modules
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            module, i = work.pop()
            if i == 0:
                index[module] = low[module] = len(index)
                stack.append(module)
                on_stack.add(module)
            if i < len(edges[module]):
                work.append((module, i + 1))
                other = edges[module][i]
                if other not in index:
                    work.append((other, 0))
                elif other in on_stack:
                    low[module] = min(low[module], index[other])
                continue
            if low[module] == index[module]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == module:
                        break
                if len(group) > 1:
                    circles.append(group)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
    return circles


def test_sessions_and_routing_have_no_import_circles_and_sessions_does_not_import_routing():
    graph = grimp.build_graph("apps", "config")
    modules = {module for module in graph.modules if module.startswith(PACKAGES)}
    assert _circles(graph, modules) == []
    into_routing = {
        (importer, imported)
        for importer in modules
        if importer.startswith("apps.sessions")
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported.startswith("apps.routing")
    }
    assert into_routing == set()


def test_the_circle_finder_finds_a_circle():
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c", "d"):
        graph.add_module(module)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="c")
    graph.add_import(importer="c", imported="a")
    graph.add_import(importer="c", imported="d")
    assert _circles(graph, {"a", "b", "c", "d"}) == [{"a", "b", "c"}]
