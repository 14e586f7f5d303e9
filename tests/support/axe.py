"""axe-core (the pinned dev dependency, node_modules/axe-core) run in a page of the browser tests:
the WCAG 2.1 A and AA rules, with every violation and every check axe could not finish
("incomplete") said in words.

The apps' pages have a strict Content-Security-Policy (no inline script), so axe is not added as
a <script> tag: its source is evaluated through Playwright's `page.evaluate`, which runs in the
page by the DevTools protocol, outside the page's policy (what @axe-core/playwright does).

axe leaves the colour contrast of some texts "incomplete": text on a gradient, or on something it
cannot see through. `contrast_faults` measures those elements itself from their computed colours
(every stop of a gradient, and points between them), so no text escapes the 4.5:1 (3:1 for large
text) check by being incomplete."""

import os
from functools import cache

import pytest

from tests.support.processes import ROOT

AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


@cache
def _source() -> str:
    if not AXE_JS.exists():
        message = f"{AXE_JS} is missing: npm ci (axe-core is a dev dependency)"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return AXE_JS.read_text(encoding="utf-8")


RUN = """async (tags) => {
  const result = await window.axe.run(document, { runOnly: { type: "tag", values: tags } });
  const nodes = (rule) => rule.nodes.map((node) => ({
    target: node.target.join(" "),
    html: node.html.slice(0, 160),
    why: [...node.any, ...node.all, ...node.none].map((check) => check.message).join("; "),
    reasons: [...node.any, ...node.all, ...node.none].map((check) => (check.data && check.data.messageKey) || check.id),
  }));
  const rules = (list) => list.map((rule) => ({ id: rule.id, help: rule.help, nodes: nodes(rule) }));
  return { violations: rules(result.violations), incomplete: rules(result.incomplete), passes: rules(result.passes) };
}"""


def audit(page) -> dict:
    """axe's WCAG 2.1 A/AA run on the page as it is now: {violations, incomplete, passes}, each a
    list of {id, help, nodes: [{target, html, why, reasons}]}."""
    if not page.evaluate("Boolean(window.axe)"):
        page.evaluate(_source())
    return page.evaluate(RUN, WCAG21_AA)


def described(rules: list[dict]) -> list[str]:
    """One line per element a rule found: rule, selector, and axe's words."""
    return [
        f"{rule['id']} at {node['target']}: {node['why'] or rule['help']}" for rule in rules for node in rule["nodes"]
    ]


# The contrast of each element `selectors` names, measured here: the text's colour against every
# colour behind it (a solid background, or a gradient sampled at its stops and between them),
# the worst ratio kept. Large text (24 px, or 18.66 px bold) needs 3:1, the rest 4.5:1 (WCAG 1.4.3).
CONTRAST = """(selectors) => {
  const parse = (text) => {
    const c = (text.match(/[\\d.]+/g) || []).map(Number);
    return c.length >= 3 ? [c[0], c[1], c[2], c.length > 3 ? c[3] : 1] : null;
  };
  const luminance = ([r, g, b]) => {
    const linear = [r, g, b].map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  };
  const ratio = (a, b) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
  const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat([1]);
  const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t);
  // The colours an element's text may stand on, from itself up to the first opaque background.
  const behind = (node) => {
    let layers = [];
    for (let at = node; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.backgroundImage.includes("url(")) return { error: "on an image" };
      const stops = (style.backgroundImage.match(/rgba?\\([^)]*\\)/g) || []).map(parse);
      if (stops.length) {
        const samples = [];
        for (let i = 0; i + 1 < stops.length; i++)
          for (let t = 0; t <= 1; t += 0.125) samples.push(mix(stops[i], stops[i + 1], t));
        return { colours: samples.map((sample) => layers.reduceRight((under, top) => over(top, under), sample)) };
      }
      const colour = parse(style.backgroundColor);
      if (colour && colour[3] > 0) {
        if (colour[3] >= 0.99) return { colours: [layers.reduceRight((under, top) => over(top, under), colour)] };
        layers = [colour, ...layers];
      }
    }
    return { colours: [layers.reduceRight((under, top) => over(top, under), [255, 255, 255, 1])] };
  };
  return selectors.map((selector) => {
    const node = document.querySelector(selector);
    if (!node) return { selector, error: "gone" };
    const style = getComputedStyle(node);
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const least = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const found = behind(node);
    if (found.error) return { selector, error: found.error };
    const background = found.colours.map((colour) => colour.slice(0, 3));
    const text = parse(style.color);
    const worst = Math.min(...background.map((colour) => ratio(over(text, colour), colour)));
    return { selector, ratio: Math.round(worst * 100) / 100, least };
  });
}"""


def contrast_faults(page, incomplete: list[dict]) -> tuple[list[str], int]:
    """Measures the elements whose colour contrast axe left incomplete: (faults, how many were
    measured). A text on an image, or one that cannot be measured, is a fault."""
    targets = [node["target"] for rule in incomplete if rule["id"] == "color-contrast" for node in rule["nodes"]]
    faults = []
    for found in page.evaluate(CONTRAST, targets) if targets else []:
        if "error" in found:
            faults.append(f"{found['selector']}: {found['error']}")
        elif found["ratio"] < found["least"]:
            faults.append(f"{found['selector']}: {found['ratio']}:1 (needs {found['least']}:1)")
    return faults, len(targets)


def findings(page, where: str, reviewed: frozenset[tuple[str, str]] = frozenset()) -> tuple[list[str], int]:
    """axe's run on the page as it is, as faults in words, each prefixed with `where`: every
    violation; every text whose contrast axe left incomplete and that fails when measured; every
    other incomplete check unless a person reviewed it (`reviewed`: (rule id, CSS selector of the
    element) pairs the test names with its reason). With the number of texts whose contrast was
    checked (by axe or here): 0 means the rule did not really run."""
    result = audit(page)
    checked = sum(len(rule["nodes"]) for rule in result["passes"] if rule["id"] == "color-contrast")
    unmeasured, measured = contrast_faults(page, result["incomplete"])

    def seen_by_a_person(rule: dict, node: dict) -> bool:
        element = page.locator(node["target"]).first
        return any(
            rule["id"] == rule_id and element.evaluate("(n, s) => n.matches(s)", selector)
            for rule_id, selector in reviewed
        )

    others = [
        {**rule, "nodes": [node for node in rule["nodes"] if not seen_by_a_person(rule, node)]}
        for rule in result["incomplete"]
        if rule["id"] != "color-contrast"
    ]
    lines = described(result["violations"]) + [f"contrast {line}" for line in unmeasured]
    lines += [f"incomplete {line}" for line in described(others)]
    return [f"{where}: {line}" for line in lines], checked + measured
