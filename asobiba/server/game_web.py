"""Each game's browser files, served from the game's own folder (its manifest's ``web``):
``/static/games/<id>.js`` is the renderer (``<package>/<web>/renderer.js``) and
``/static/games/<id>.words.json`` its words (``words.json``), for every registered game —
plug-ins included — with nothing listed here. Any other name (``generic.js``) is a file of
``asobiba/web/games/``. The renderer keeps the URL it had beside ``js/``, so its imports
(``../js/util.js``) resolve as before."""

from __future__ import annotations

import re
from pathlib import Path

from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from ..games import available, manifest

_NAME = re.compile(r"^/([a-z][a-z0-9_]{0,31})(\.js|\.words\.json)$")
_TYPES = {".js": "text/javascript; charset=utf-8",
          ".words.json": "application/json; charset=utf-8"}
_FILES = {".js": "renderer.js", ".words.json": "words.json"}


class GameFiles:
    """The ASGI app mounted at ``/static/games``."""

    def __init__(self, web_dir: Path) -> None:
        self.fallback = StaticFiles(directory=web_dir / "games")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        root = scope.get("root_path", "")
        rel = path[len(root):] if root and path.startswith(root) else path
        m = _NAME.match(rel)
        if scope["type"] == "http" and m and m.group(1) in available():
            file = manifest(m.group(1)).web_file(_FILES[m.group(2)])
            if file is None and m.group(2) == ".words.json":  # a game with no words of its own
                response = Response(b"{}", media_type=_TYPES[m.group(2)])
            elif file is None:
                response = Response(b"", status_code=404)
            else:
                response = Response(file.read_bytes(), media_type=_TYPES[m.group(2)],
                                    headers={"cache-control": "no-cache"})
            await response(scope, receive, send)
            return
        await self.fallback(scope, receive, send)


def game_files_mount(web_dir: Path) -> Mount:
    return Mount("/static/games", app=GameFiles(web_dir), name="game_files")
