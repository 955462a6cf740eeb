"""Issue 14 item 4, in a real Chromium: the login-CSRF attack, a cross-site WebSocket, and
the web client's pages running under a CSP without inline script.

The attack: a page on another site posted a ``text/plain`` form to ``/api/account/login``
and signed the visitor into the attacker's account. Here the attacker's page is served by a
second local server on another port (another origin) and submits that form in Chromium."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from .browser import TIMEOUT_MS, open_context

pytestmark = pytest.mark.browser
WEB = Path(__file__).resolve().parents[2] / "asobiba" / "web"


def post_json(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as res:
        return json.loads(res.read())


@pytest.fixture(scope="module")
def attacker(server: Any) -> Iterator[str]:
    """Another origin: a tiny HTTP server whose pages attack ``server``."""
    pages: dict[str, str] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            body = pages.get(self.path, "not here").encode()
            self.send_response(200 if self.path in pages else 404)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    target = server.url
    # the login form of the issue: text/plain, so the body reads as JSON
    pages["/login.html"] = f"""<!doctype html><body>
<form method="POST" action="{target}/api/account/login" enctype="text/plain">
<input type="hidden" name='{{"name": "mallory", "password": "mallory pass 77", "x": "'
 value='"}}'></form>
<script>document.forms[0].submit();</script></body>"""
    pages["/urlencoded.html"] = f"""<!doctype html><body>
<form method="POST" action="{target}/api/account/guest">
<input type="hidden" name="a" value="b"></form>
<script>document.forms[0].submit();</script></body>"""
    pages["/blank.html"] = "<!doctype html><body>an ordinary page elsewhere</body>"
    yield base
    httpd.shutdown()


def signed_in(page: Any, base: str) -> Any:
    page.goto(f"{base}/api/account")
    return json.loads(page.inner_text("body"))["player"]


def test_attack_login_csrf_from_another_origin_signs_nobody_in(
        browser: Any, server: Any, attacker: str) -> None:
    post_json(f"{server.url}/api/account/register",
              {"name": "mallory", "password": "mallory pass 77"})
    context = open_context(browser)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    with page.expect_navigation(url=f"{server.url}/api/account/login"):
        page.goto(f"{attacker}/login.html")
    answer = json.loads(page.inner_text("body"))
    assert answer["error"]["code"] in ("bad_origin", "bad_content_type"), answer
    assert signed_in(page, server.url) is None, "the visitor was signed in as the attacker"
    assert not [c for c in context.cookies() if c["name"] == "asobiba_session"]
    # an urlencoded form (guest sign-up) is refused the same way
    with page.expect_navigation(url=f"{server.url}/api/account/guest"):
        page.goto(f"{attacker}/urlencoded.html")
    assert json.loads(page.inner_text("body"))["error"]["code"] == "bad_origin"
    assert signed_in(page, server.url) is None
    context.close()


def test_attack_cross_site_websocket_is_refused(browser: Any, server: Any,
                                                attacker: str) -> None:
    room = post_json(f"{server.url}/api/rooms", {
        "game": "reversi", "seats": [{"kind": "human"}, {"kind": "human"}]})["room"]
    context = open_context(browser)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    ws_url = server.url.replace("http://", "ws://") + f"/ws/{room}"
    page.goto(f"{attacker}/blank.html")
    page.evaluate(f"""() => {{
        const ws = new WebSocket({json.dumps(ws_url)});
        window.events = [];
        ws.onopen = () => window.events.push("open");
        ws.onmessage = () => window.events.push("message");
        ws.onclose = () => {{ window.events.push("close"); document.body.dataset.done = "1"; }};
    }}""")
    page.wait_for_selector("body[data-done='1']", state="attached")
    events = page.evaluate("window.events")
    assert "message" not in events and "open" not in events, events
    # the same page on the server's own origin connects
    page.goto(f"{server.url}/")
    page.evaluate(f"""() => new Promise((ok) => {{
        const ws = new WebSocket({json.dumps(ws_url)});
        ws.onmessage = () => {{ window.got = true; ws.close(); ok(); }};
        ws.onclose = () => ok();
    }})""")
    assert page.evaluate("window.got === true")
    context.close()


def test_rule_the_web_client_has_no_inline_script_or_handlers() -> None:
    for html in sorted(WEB.glob("*.html")):
        text = html.read_text(encoding="utf-8")
        for tag in re.findall(r"<script\b[^>]*>", text, flags=re.I):
            assert "src=" in tag, f"{html.name}: inline <script> {tag}"
        assert not re.search(r"\son[a-z]+\s*=", text, flags=re.I), f"{html.name}: on*= handler"
        assert "javascript:" not in text.lower(), html.name


def test_rule_pages_run_under_the_csp_without_violations(browser: Any, server: Any) -> None:
    context = open_context(browser)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    room = post_json(f"{server.url}/api/rooms", {
        "game": "reversi", "seats": [{"kind": "human"}, {"kind": "human"}]})["room"]
    for path in ("/", "/replay", "/account", "/daily/reversi", "/leaderboard/reversi",
                 "/tutorial/reversi", f"/r/{room}"):
        page.goto(f"{server.url}{path}")
        page.wait_for_load_state("networkidle")
    assert not problems, problems
    context.close()
