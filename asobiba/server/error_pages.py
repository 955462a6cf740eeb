"""Error pages for people (issue 27 item 9): a browser that asks for a page (``Accept:
text/html``) at an unknown address, or hits a server failure, gets an HTML page in its
language, with the same status; the API (``/api/...``) and every other client keep the one
JSON error shape.

The language is the one the pages use: the ``asobiba_lang`` cookie (written by the client
whenever the language is chosen, js/settings.js) first, then the browser's
``Accept-Language``; English otherwise."""

from __future__ import annotations

from html import escape

from starlette.requests import Request
from starlette.responses import HTMLResponse

LANG_COOKIE = "asobiba_lang"
LANGS = ("en", "ja")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "404.title": "Page not found",
        "404.body": "There is nothing at {path}. The link may be old, or the game may be over "
                    "and gone.",
        "500.title": "Something went wrong on our side",
        "500.body": "The server failed on this request. It is not your fault — please try "
                    "again in a moment.",
        "home": "Back to the lobby",
    },
    "ja": {
        "404.title": "ページが見つかりません",
        "404.body": "{path} には何もありません。リンクが古いか、対局が終わって消えた可能性が"
                    "あります。",
        "500.title": "サーバー側で問題が発生しました",
        "500.body": "このリクエストの処理に失敗しました。あなたの操作のせいではありません。"
                    "少し待ってからもう一度お試しください。",
        "home": "ロビーに戻る",
    },
}


def wants_page(request: Request) -> bool:
    """A person's browser asking for a page: not an API or socket path, and an ``Accept``
    that names HTML (a browser's navigation does; ``fetch`` and API clients do not)."""
    path = request.url.path
    if path.startswith(("/api/", "/ws/", "/static/")) or path in ("/api", "/ws"):
        return False
    return "text/html" in request.headers.get("accept", "")


def page_language(request: Request) -> str:
    """The language the pages would pick: the cookie, else ``Accept-Language`` in its order
    of preference (q-values honoured), else English."""
    saved = request.cookies.get(LANG_COOKIE)
    if saved in LANGS:
        return str(saved)
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(request.headers.get("accept-language", "").split(",")):
        bits = part.strip().split(";")
        tag = bits[0].strip().lower()
        q = 1.0
        for b in bits[1:]:
            b = b.strip()
            if b.startswith("q="):
                try:
                    q = float(b[2:])
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag))
    for _, _, tag in sorted(ranked):
        for code in LANGS:
            if tag == code or tag.startswith(code + "-"):
                return code
    return "en"


def error_page(request: Request, status: int) -> HTMLResponse:
    """The HTML page of a 404 (or another 4xx, said as "not found") or a 500."""
    lang = page_language(request)
    words = WORDS[lang]
    kind = "500" if status >= 500 else "404"
    title = words[f"{kind}.title"]
    body = words[f"{kind}.body"].replace("{path}", f"<code>{escape(request.url.path)}</code>")
    html = (
        "<!doctype html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)} — asobiba 遊び場</title>\n"
        '<link rel="icon" href="data:,">\n'
        '<link rel="stylesheet" href="/static/css/app.css">\n'
        '<script type="module" src="/static/js/settings.js"></script>\n'
        "</head>\n"
        f'<body class="page error-page" data-status="{status}">\n'
        '<header class="top"><a class="brand" href="/"><span class="kanji">遊び場</span> '
        "<span>asobiba</span></a></header>\n"
        f'<main class="narrow">\n<h1>{escape(title)}</h1>\n<p>{body}</p>\n'
        f'<p><a href="/">{escape(words["home"])}</a></p>\n</main>\n</body>\n</html>\n'
    )
    return HTMLResponse(html, status_code=status,
                        headers={"cache-control": "no-store", "vary": "Accept, Accept-Language"})
