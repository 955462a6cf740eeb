"""``asobiba connect``: the Bot API's reference client (docs/bot-api.md).

It connects a BOT account (by its API token) to a server and lets any program — an engine in
any language, speaking the small line protocol below over its stdin/stdout — play its games:
it follows the account's event stream, accepts challenges, and for each game starts the
engine, streams the game's states and sends the engine's moves.

The line protocol (one line each; the client writes, the engine answers ``move``)::

    game <room> <game-id> <seat> <options-json>   a game starts (once, first)
    view <json>                                   the seat's view (all the engine may know)
    legal <json list of move texts>               the moves it may play now
    go                                            answer with: move <text>
    error <code> <message>                        the last move was refused; go follows
    end <result-json>                             the game is over
    quit                                          the engine should exit

Only the standard library (urllib for the NDJSON streams): it runs on the default install.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import IO

from ..core.jsontypes import JSONDecoded, JSONObject

RETRIES = 3  # refused moves in a row before the client resigns the game for the engine
RECONNECTS = 5  # times a game's stream is opened again when it ends before the game


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


class BotClient:
    """The HTTP side: each request with ``Authorization: Bearer <token>``."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.token = token

    def _request(self, method: str, path: str, body: JSONObject | None = None,
                 timeout: float | None = 60.0) -> urllib.request.Request:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.server + path, data=data, method=method)
        req.add_header("authorization", f"Bearer {self.token}")
        if data is not None:
            req.add_header("content-type", "application/json")
        return req

    def call(self, method: str, path: str, body: JSONObject | None = None) -> JSONObject:
        try:
            with urllib.request.urlopen(self._request(method, path, body), timeout=60) as res:
                out: JSONDecoded = json.loads(res.read() or b"{}")
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            try:
                err = json.loads(raw)["error"]
                raise ApiError(exc.code, str(err["code"]), str(err["message"])) from None
            except (ValueError, KeyError, TypeError):
                raise ApiError(exc.code, "http_error", raw[:200].decode(errors="replace")
                               ) from None
        return out if isinstance(out, dict) else {}

    def stream(self, path: str) -> Iterator[JSONObject]:
        """The NDJSON events of a stream (keep-alive empty lines skipped), until it ends."""
        try:
            res = urllib.request.urlopen(self._request("GET", path), timeout=120)
        except urllib.error.HTTPError as exc:
            raise ApiError(exc.code, "stream_refused", exc.read()[:300].decode(errors="replace")
                           ) from None
        with res:
            for raw in res:
                line = raw.strip()
                if line:
                    event = json.loads(line)
                    if isinstance(event, dict):
                        yield event


class Engine:
    """The engine program, one per game, over its stdin/stdout."""

    def __init__(self, command: str) -> None:
        self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)

    def tell(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.replace("\n", " ") + "\n")
        self.proc.stdin.flush()

    def move(self) -> str:
        """Its answer to ``go``: the text after ``move`` (other lines are its own notes)."""
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited without answering 'go'")
            if line.startswith("move "):
                return line[5:].strip()

    def close(self) -> None:
        try:
            self.tell("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def play_game(client: BotClient, engine_cmd: str, room: str,
              log: Callable[[str], None]) -> JSONObject | None:
    """Play one game to its end with a fresh engine; the final state event."""
    engine: Engine | None = None
    final: JSONObject | None = None
    try:
        for event in client.stream(f"/api/bot/game/stream/{room}"):
            if event.get("type") == "gameFull":
                engine = Engine(engine_cmd)
                engine.tell(f"game {room} {event['game']} {event['seat']} "
                            f"{json.dumps(event['options'])}")
                state = event["state"]
                assert isinstance(state, dict)
            else:
                state = event
            assert engine is not None
            if state.get("status") != "active":
                final = state
                engine.tell(f"end {json.dumps(state.get('result'))}")
                break
            if state.get("your_turn"):
                _turn(client, engine, room, state, log)
    finally:
        if engine is not None:
            engine.close()
    return final


def _turn(client: BotClient, engine: Engine, room: str, state: JSONObject,
          log: Callable[[str], None]) -> None:
    engine.tell(f"view {json.dumps(state['view'])}")
    engine.tell(f"legal {json.dumps(state['legal_moves'])}")
    for _ in range(RETRIES):
        engine.tell("go")
        text = engine.move()
        try:
            client.call("POST", f"/api/bot/game/{room}/move/"
                        f"{urllib.parse.quote(text, safe='')}?ply={state['ply']}")
            return
        except ApiError as exc:
            if exc.code in ("stale", "game_over"):
                return  # the position moved on: the stream brings the new one
            log(f"{room}: move {text!r} refused: {exc.code} {exc.message}")
            engine.tell(f"error {exc.code} {exc.message}")
    log(f"{room}: {RETRIES} moves refused in a row; resigning")
    client.call("POST", f"/api/bot/game/{room}/resign")


def run(server: str, token: str, engine_cmd: str, games: int = 0, ai_game: str | None = None,
        ai_level: str = "1", ai_options: JSONObject | None = None, ai_seat: int = 0,
        accept: Callable[[JSONObject], str | None] | None = None,
        out: IO[str] | None = None) -> int:
    """Follow the account's events and play; after ``games`` finished games (0: never)
    return how many were played. ``accept``: None to take a challenge, else the reason to
    decline it. ``ai_game``: first challenge the server's CPU to one game."""
    out = out or sys.stderr
    lock = threading.Lock()

    def log(line: str) -> None:
        with lock:
            print(line, file=out, flush=True)

    client = BotClient(server, token)
    done = threading.Semaphore(0)
    threads: dict[str, threading.Thread] = {}
    finished = 0

    def game_thread(room: str) -> None:
        try:
            final = None
            for _ in range(RECONNECTS):  # a stream cut mid-game: pick the game up again
                final = play_game(client, engine_cmd, room, log)
                if final is not None:
                    break
                log(f"{room}: the game stream ended early; reconnecting")
            log(f"{room}: over: {json.dumps(final and final.get('result'))}")
        except Exception as exc:  # noqa: BLE001 - one game's failure is reported, not fatal
            log(f"{room}: stopped: {exc}")
        finally:
            done.release()

    if ai_game:
        made = client.call("POST", "/api/bot/challenge/ai", {
            "game": ai_game, "level": ai_level, "options": ai_options or {}, "seat": ai_seat})
        log(f"challenged the CPU: room {made['room']}")

    def events() -> None:
        for event in client.stream("/api/bot/stream/event"):
            kind = event.get("type")
            if kind == "challenge":
                ch = event["challenge"]
                assert isinstance(ch, dict)
                why = accept(ch) if accept else None
                try:
                    if why:
                        client.call("POST", f"/api/bot/challenge/{ch['id']}/decline",
                                    {"reason": why})
                        log(f"declined challenge {ch['id']} ({why})")
                    else:
                        client.call("POST", f"/api/bot/challenge/{ch['id']}/accept")
                        log(f"accepted challenge {ch['id']} ({ch['game']})")
                except ApiError as exc:
                    log(f"challenge {ch['id']}: {exc}")
            elif kind == "gameStart":
                game = event["game"]
                assert isinstance(game, dict)
                room = str(game["room"])
                if room not in threads:
                    log(f"{room}: game start ({game['id']}, seat {game['seat']})")
                    threads[room] = threading.Thread(target=game_thread, args=(room,),
                                                     daemon=True)
                    threads[room].start()

    listener = threading.Thread(target=events, daemon=True)
    listener.start()
    while True:
        if not done.acquire(timeout=1.0):
            if not listener.is_alive():
                log("the event stream ended")
                return finished
            continue
        finished += 1
        if games and finished >= games:
            return finished


__all__ = ["ApiError", "BotClient", "Engine", "play_game", "run"]
