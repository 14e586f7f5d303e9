"""What the walks share: a running `make run` service driven through Playwright on Debian's
Chromium (headless, a fake camera and microphone), each step printed with its screenshot, the
pages' console errors gathered, and a non-zero exit on a failed step.

A walk is a script (capacity.py, accessible.py) that starts against a service already running:
`make run PORT=8731` in one terminal, `.venv/bin/python scripts/walks/capacity.py --base-url
http://127.0.0.1:8731` in another. It pairs its kiosks with the codes `/` gives, as a person would,
so each run needs the service's demo data (seed_demo) and nothing else.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("PANEL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
]
DEMO_PASSWORD = "demo-password-1"
# The refusals the apps answer on purpose and handle (a 401 before sign-in, a 409 at capacity...):
# Chromium logs each as a console error; any other error is one the walk reports.
EXPECTED_REFUSALS = re.compile(r"^Failed to load resource: the server responded with a status of (401|409|410|429) ")


class StepFailed(Exception):
    pass


@dataclass
class Walk:
    name: str
    base_url: str
    out: Path
    browser: Browser | None = None
    pages: dict[str, Page] = field(default_factory=dict)
    console: dict[str, list[str]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    count: int = 0

    # -- pages ------------------------------------------------------------------------------
    def open(self, label: str, path: str, viewport: tuple[int, int], *, media: bool = False) -> Page:
        """A page in a fresh context (a separate device: its own cookies and storage)."""
        assert self.browser is not None
        context: BrowserContext = self.browser.new_context(
            base_url=self.base_url,
            viewport={"width": viewport[0], "height": viewport[1]},
            permissions=["camera", "microphone"] if media else [],
        )
        context.set_default_timeout(60_000)
        # No internet here: anything but the service fails at once rather than hanging.
        context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]|localhost[:/])"), lambda r: r.abort())
        page = context.new_page()
        errors: list[str] = []
        self.console[label] = errors

        def on_console(message: Any) -> None:
            if message.type == "error" and not EXPECTED_REFUSALS.search(message.text):
                errors.append(f"{message.text} [{message.location.get('url', '')}]")

        page.on("console", on_console)
        page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
        if os.environ.get("WALK_TRACE"):  # each API call the page made, as it finished
            started = time.monotonic()

            def on_finished(request: Any) -> None:
                if "/api/" in request.url:
                    path = request.url.split("/api/", 1)[1]
                    print(f"    [{label} {time.monotonic() - started:7.2f}] {request.method} {path}")

            page.on("requestfinished", on_finished)
        self.pages[label] = page
        page.goto(path)
        return page

    # -- steps ------------------------------------------------------------------------------
    def shot(self, page: Page, name: str, *, full_page: bool = False) -> Path:
        self.count += 1
        path = self.out / f"{self.count:02d}-{name}.png"
        try:
            page.screenshot(path=str(path), full_page=full_page, timeout=45_000, animations="disabled")
        except Exception as exc:  # a picture missed is said, it does not hide the step's outcome
            print(f"  (no screenshot {path.name}: {str(exc).splitlines()[0]})", flush=True)
        return path

    @contextmanager
    def step(self, text: str, page: Page | None = None, shot: str | None = None) -> Iterator[None]:
        """One step: printed, run, screenshotted (`shot` names the picture of `page`). A failure
        screenshots every page, prints why, and stops the walk."""
        print(f"- {text} ...", flush=True)
        started = time.monotonic()
        try:
            yield
        except Exception as exc:
            reason = "".join(traceback.format_exception_only(exc)).strip()
            self.failures.append(f"{text}: {reason}")
            print(f"  FAILED after {time.monotonic() - started:.1f} s: {reason}", flush=True)
            pictures = [self.shot(p, "FAILED-" + re.sub(r"\W+", "-", label)) for label, p in self.pages.items()]
            for picture in pictures:
                print(f"  screenshot: {picture.relative_to(ROOT) if picture.is_relative_to(ROOT) else picture}")
            raise StepFailed(text) from exc
        where = ""
        if page is not None and shot:
            picture = self.shot(page, shot)
            where = f"  screenshot: {picture.relative_to(ROOT) if picture.is_relative_to(ROOT) else picture}"
        print(f"  ok ({time.monotonic() - started:.1f} s){where and chr(10) + where}", flush=True)

    def check(self, ok: bool, text: str) -> None:
        """A finding that does not stop the walk (wrong words, a console error): reported at the
        end, and the exit is non-zero."""
        if ok:
            return
        self.failures.append(text)
        print(f"  CHECK FAILED: {text}", flush=True)

    def note(self, text: str) -> None:
        self.notes.append(text)
        print(f"  note: {text}", flush=True)

    def console_clean(self) -> None:
        for label, errors in self.console.items():
            self.check(not errors, f"console errors on {label}: {errors}")

    def finish(self) -> int:
        self.console_clean()
        print()
        for text in self.notes:
            print(f"NOTE {text}")
        for text in self.failures:
            print(f"FAIL {text}")
        print(f"{self.name}: {'FAILED' if self.failures else 'passed'}; screenshots in {self.out}")
        return 1 if self.failures else 0


def arguments(name: str, description: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--base-url", default="http://127.0.0.1:8000", help="the running `make run` service")
    parser.add_argument("--out", default=str(ROOT / "var" / "walks" / name), help="where the screenshots go")
    parser.add_argument("--headed", action="store_true", help="show the browser windows")
    return parser.parse_args()


def run(name: str, description: str, body: Callable[[Walk], None]) -> int:
    args = arguments(name, description)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.png"):
        old.unlink()
    walk = Walk(name=name, base_url=args.base_url.rstrip("/"), out=out)
    expect.set_options(timeout=60_000)  # the machine is shared: pages may take a while
    with sync_playwright() as playwright:
        walk.browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=not args.headed
        )
        try:
            body(walk)
        except StepFailed:
            pass
        finally:
            walk.browser.close()
    return walk.finish()


# -- what both walks do ---------------------------------------------------------------------
def kiosk_code(walk: Walk, landing: Page, *, renew: bool) -> str:
    """The demo kiosk app's pairing code on `/` (a new one when `renew`, or when the last was used)."""
    landing.goto("/")
    if renew or landing.locator("#kiosk-pairing-code").count() == 0:
        landing.click("#new-kiosk-code")
    code = landing.locator("#kiosk-pairing-code").inner_text().strip()
    assert re.fullmatch(r"\d{6}", code), f"no pairing code on / ({code!r})"
    return code


def pair_kiosk(page: Page, code: str, name: str) -> None:
    expect(page.locator("body")).to_have_attribute("data-screen", "pairing")
    page.fill("#pairing-code", code)
    page.fill("#pairing-name", name)
    page.click("#pairing-submit")
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")
    expect(page.locator("#business-name")).to_have_text("Burger Barn")


def reader_page_of(walk: Walk, landing: Page, kiosk_name: str) -> str:
    """The demo reader page `/` links for the kiosk named `kiosk_name`."""
    landing.goto("/")
    link = landing.locator("#demo-readers a", has_text=f"{kiosk_name}:")
    expect(link).to_have_count(1)
    href = link.get_attribute("href")
    assert href, f"no reader link for {kiosk_name}"
    return href


def main(name: str, description: str, body: Callable[[Walk], None]) -> None:
    sys.exit(run(name, description, body))


def overflow(page: Page) -> list[str]:
    """Visible controls cut off by the viewport or wider than it (the large-text check)."""
    return page.evaluate(
        """() => {
          const width = document.documentElement.clientWidth;
          const out = [];
          const scroll = document.documentElement.scrollWidth;
          if (scroll > width + 1) out.push(`page scrolls sideways (${scroll} > ${width})`);
          for (const node of document.querySelectorAll('button, input, select, a[href]')) {
            const box = node.getBoundingClientRect();
            if (!box.width || !box.height || node.closest('[hidden]')) continue;
            const name = node.id || node.textContent.trim().slice(0, 30);
            if (box.right > width + 1 || box.left < -1) out.push(`${name} (${box.left | 0}..${box.right | 0})`);
          }
          return out;
        }"""
    )


def covered(page: Page) -> list[str]:
    """Visible, enabled controls whose centre is covered by another element (an overlap)."""
    return page.evaluate(
        """() => {
          const out = [];
          for (const node of document.querySelectorAll('button, input, select')) {
            const box = node.getBoundingClientRect();
            if (!box.width || !box.height || node.disabled || node.closest('[hidden]')) continue;
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) continue;
            const top = document.elementFromPoint(x, y);
            if (top && top !== node && !node.contains(top) && !top.contains(node)) {
              const name = node.id || node.textContent.trim().slice(0, 30);
              out.push(`${name} under ${top.id || top.className || top.tagName}`);
            }
          }
          return out;
        }"""
    )


def agent_call(agent: Page, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """The agent API as the dashboard calls it (its cookie, the XSRF header)."""
    xsrf = next((c["value"] for c in agent.context.cookies() if c["name"] == "XSRF-TOKEN"), "")
    answer = agent.request.fetch(path, method=method, headers={"X-XSRF-TOKEN": xsrf}, data=body)
    return answer.status, (answer.json() if answer.body() else None)


def agent_clean_slate(walk: Walk, agent: Page) -> bool:
    """Ends what the agent still holds or is offered from an earlier run (whose browsers are gone),
    so the walk starts as a fresh shift would. Whether there was any."""
    cleaned = False
    for _ in range(10):
        _, current = agent_call(agent, "GET", "/api/sessions/current")
        _, incoming = agent_call(agent, "GET", "/api/sessions/incoming")
        held = [entry["session"]["id"] for entry in (current or {}).get("held", []) if entry.get("session")]
        waiting = [entry["id"] for entry in (incoming or {}).get("sessions", [])]
        if not held and not waiting:
            status, user = agent_call(agent, "GET", "/api/user")
            if (user or {}).get("agent_status") not in (None, "available"):
                agent_call(agent, "POST", "/api/agent/status", {"status": "available"})
                walk.note(f"the agent was {user.get('agent_status')} from an earlier run: set available")
                cleaned = True
            return cleaned
        cleaned = True
        for session_id in held:
            status, _ = agent_call(agent, "POST", f"/api/sessions/{session_id}/end", {"reason": "technical_issue"})
            walk.note(f"ended session {session_id} left from an earlier run ({status})")
        for session_id in waiting:
            agent_call(agent, "POST", f"/api/sessions/{session_id}/accept")
            status, _ = agent_call(agent, "POST", f"/api/sessions/{session_id}/end", {"reason": "technical_issue"})
            walk.note(f"ended waiting session {session_id} left from an earlier run ({status})")
    raise AssertionError("sessions from earlier runs keep coming back")
