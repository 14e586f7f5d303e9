"""`make structure` (scripts/structure.py): what it counts, on small graphs whose answers are known,
and that the project is within the limits at the top of the script."""

import grimp

from tests.support.structure_script import structure


def _graph(imports: list[tuple[str, str]]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for importer, imported in imports:
        graph.add_import(importer=importer, imported=imported)
    return graph


def _pyproject(layers: list[str], ignores: list[str], ignore_errors: list[str]) -> dict:
    contracts = [{"type": "layers", "layers": layers, "ignore_imports": ignores}]
    overrides = [{"module": ignore_errors, "ignore_errors": True}, {"module": "apps.x.b", "strict": True}]
    return {"tool": {"importlinter": {"contracts": contracts}, "mypy": {"overrides": overrides}}}


def test_circles_and_the_fewest_imports_that_point_up():
    # a -> b -> c -> a, and c <-> d: two imports must point up (c -> a or a -> b..., and one of c/d).
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"c"}, "e": {"a"}}
    circles = structure.strongly_connected(edges)
    assert circles == [{"a", "b", "c", "d"}]
    assert len(structure.fewest_upward(circles[0], edges)) == 2
    assert structure.strongly_connected({"a": {"b"}, "b": set()}) == []


def test_measure_counts_ignored_imports_mutual_pairs_ignore_errors_and_apps_on_no_floor():
    graph = _graph(
        [
            ("apps.x.a", "apps.y.a"),
            ("apps.y.b", "apps.x.b"),
            ("apps.x.api.v", "apps.y.a"),
            ("apps.x.api.w", "apps.y.b"),
            ("apps.z.a", "apps.x.a"),
            ("apps.x.a", "apps.x.b"),
            ("apps.x.b", "apps.x.a"),
        ]
    )
    found = structure.measure(
        graph, _pyproject(["apps.x", "apps.y"], ["apps.x.api.** -> apps.y.*"], ["apps.x.a", "apps.y.b"])
    )
    assert found["circles"] == [{"apps.x.a", "apps.x.b"}]
    assert len(found["back_up"]) == 1
    assert found["ignored"] == [("apps.x.api.v", "apps.y.a"), ("apps.x.api.w", "apps.y.b")]
    assert found["mutual"] == [("apps.x", "apps.y")]
    assert found["ignore_errors"] == ["apps.x.a", "apps.y.b"]
    assert found["off_floors"] == ["apps.z"]


def test_the_project_is_within_the_limits(capsys):
    assert structure.main([]) == 0, capsys.readouterr().out
