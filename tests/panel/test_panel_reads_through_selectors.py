"""One tenant rule: the owner panel reads every model through its app's selectors (`..._of_owner`),
so what an owner may see is written once per model, not once per view. The panel's menu pages are
being moved over separately (apps/panel/views/menu.py)."""

import re

from tests.support.processes import ROOT

PANEL = ROOT / "apps" / "panel"
NOT_YET = {PANEL / "views" / "menu.py"}
DIRECT_READ = re.compile(r"\.objects\.(?!none\(\))")  # an empty placeholder queryset reads nothing


def test_the_panel_makes_no_direct_model_reads():
    found = [
        f"{path.relative_to(PANEL)}:{number}: {line.strip()}"
        for path in sorted(PANEL.rglob("*.py"))
        if path not in NOT_YET
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if DIRECT_READ.search(line)
    ]
    assert not found, "read through the app's selectors instead:\n" + "\n".join(found)
