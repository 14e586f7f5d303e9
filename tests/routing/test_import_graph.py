"""Routing depends on sessions, never the reverse, and neither has a circle of imports inside it
(the layers contract in pyproject.toml says the first between apps; this says it module by module,
with imports inside functions counted, as grimp reads them)."""

import grimp

from tests.support.structure_script import structure

PACKAGES = ("apps.sessions", "apps.routing")


def _circles(graph: grimp.ImportGraph, modules: set[str]) -> list[set[str]]:
    """The strongly connected groups of more than one module, found as `make structure` finds them."""
    edges = {module: graph.find_modules_directly_imported_by(module) & modules for module in modules}
    return structure.strongly_connected(edges)


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
