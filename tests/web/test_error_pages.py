"""Issue 27 item 9: pages, not JSON, for people. A browser's request (``Accept: text/html``)
for an unknown address gets an HTML page with status 404 in its language (the language
cookie the client writes, else ``Accept-Language``); a server failure on a page is an HTML
500; the API keeps its JSON errors whatever the ``Accept`` says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from asobiba.server import create_app

from .helpers import make_client

BROWSER_ACCEPT = ("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
                  "image/webp,*/*;q=0.8")


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with make_client(str(tmp_path)) as c:
        yield c


@pytest.mark.parametrize(("accept_language", "lang", "title"), [
    ("en-US,en;q=0.9", "en", "Page not found"),
    ("ja-JP,ja;q=0.9,en;q=0.5", "ja", "ページが見つかりません"),
    ("fr-FR,en;q=0.3,ja;q=0.8", "ja", "ページが見つかりません"),  # q-values, not order
])
def test_issue27_unknown_page_is_an_html_404_in_the_browsers_language(
        client: Any, accept_language: str, lang: str, title: str) -> None:
    r = client.get("/no/such/page", headers={"accept": BROWSER_ACCEPT,
                                             "accept-language": accept_language})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert f'<html lang="{lang}">' in r.text
    assert f"<h1>{title}</h1>" in r.text
    assert "<code>/no/such/page</code>" in r.text
    assert 'href="/"' in r.text  # a way back


def test_issue27_the_language_cookie_wins_over_accept_language(client: Any) -> None:
    client.cookies.set("asobiba_lang", "ja")
    r = client.get("/nowhere", headers={"accept": BROWSER_ACCEPT,
                                        "accept-language": "en-US"})
    assert r.status_code == 404 and '<html lang="ja">' in r.text


def test_issue27_the_address_is_escaped_in_the_page(client: Any) -> None:
    r = client.get("/%3Cscript%3Ealert(1)%3C%2Fscript%3E", headers={"accept": BROWSER_ACCEPT})
    assert r.status_code == 404
    assert "<script>alert" not in r.text and "&lt;script&gt;" in r.text


def test_issue27_api_paths_and_non_browsers_keep_json(client: Any) -> None:
    for path, accept in [("/api/unknown", BROWSER_ACCEPT), ("/api/unknown", "*/*"),
                         ("/nowhere", "application/json"), ("/nowhere", "*/*")]:
        r = client.get(path, headers={"accept": accept})
        assert r.status_code == 404, path
        assert r.headers["content-type"].startswith("application/json"), (path, accept)
        assert r.json()["error"]["code"] == "not_found"


def test_issue27_a_server_failure_on_a_page_is_an_html_500(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import asobiba.server.routes.pages as pages_module  # the pages' route module

    def broken(*args: object, **kw: object) -> None:
        raise RuntimeError("disk gone")

    monkeypatch.setattr(pages_module, "FileResponse", broken)
    with TestClient(create_app(str(tmp_path), bot_processes=0),
                    raise_server_exceptions=False) as c:
        r = c.get("/replay", headers={"accept": BROWSER_ACCEPT, "accept-language": "ja"})
        assert r.status_code == 500
        assert r.headers["content-type"].startswith("text/html")
        assert "サーバー側で問題が発生しました" in r.text
        api = c.get("/replay", headers={"accept": "application/json"})
        assert api.status_code == 500 and api.json()["error"]["code"] == "server_error"
