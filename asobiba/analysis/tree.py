"""The analysis board's move tree as text, and as a share token (docs/analysis.md).

**Notation** (what Export shows and the paste box reads back): PGN-like tag lines, then the
move text::

    [Game "reversi"]
    [Options "{\\"n\\": 5}"]
    [Seed "0"]
    [Setup "{...}"]

    {a comment on the start} 1. d3 {a comment} (1. c4 2. c3) 2. c5

Tag values are JSON string literals (so any text survives); ``Options`` and ``Setup`` hold
JSON. A move is written bare when it is one word of no special character, else as a JSON
string literal (``"attack B1=0"``). ``N.`` before a move is its ply number (read and
checked for form, not for value: the tree decides). ``{…}`` after a move is its comment
(``\\}`` and ``\\\\`` escape), before the first move the start's; ``( … )`` after a move is
an alternative to that move, with what follows it. The first child of every node is the
main line. :func:`export` then :func:`parse` gives back the same tree exactly.

**Share token**: the notation, deflated and written in URL-safe base64, after a version
letter. At most :data:`MAX_TOKEN` characters; unpacking inflates at most :data:`MAX_TEXT`
bytes (a token that would inflate further is refused: no inflation bombs).

Every refusal is an :class:`~.position.AnalysisError`: ``analysis_tree_garbled``
(``at``: the character offset, ``why``), ``analysis_tree_too_big`` (``most``,
``what``: ``nodes``, ``nesting``, ``comment``, ``text`` or ``link``), ``analysis_share_garbled``.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..core import MoveError
from ..core.jsontypes import JSONObject
from .position import AnalysisError

MAX_NODES = 2000
"""Moves in a tree at most (every variation's counted)."""
MAX_COMMENT = 500
MAX_NESTING = 40
"""Variations inside variations at most (the writer and reader recurse on them)."""
MAX_TEXT = 60_000
"""Characters of notation read at most (and bytes a token inflates to)."""
MAX_TOKEN = 6000
"""Characters of a share token at most: a link stays well under the browsers' URL limits."""
VERSION = "1"

_BARE = re.compile(r"[^\s(){}\[\]\"\\;]+")
_NUMBER = re.compile(r"\d+\.(\.\.)?")


@dataclass
class Node:
    move: str | None
    comment: str = ""
    children: list[Node] = field(default_factory=list)

    def to_json(self) -> JSONObject:
        """The page's form, flat (a nested one would be as deep as the game is long):
        ``{"comment": the root's, "nodes": [[parent, move, comment], ...]}``, in pre-order,
        ``parent`` the index of an earlier node or -1 for the root; siblings in order."""
        nodes: list[list[object]] = []
        todo: list[tuple[Node, int]] = [(c, -1) for c in reversed(self.children)]
        while todo:
            node, parent = todo.pop()
            nodes.append([parent, node.move, node.comment])
            here = len(nodes) - 1
            todo.extend((c, here) for c in reversed(node.children))
        return {"comment": self.comment, "nodes": nodes}

    def count(self) -> int:
        """Moves in this node and under it."""
        n, todo = 0, [self]
        while todo:
            node = todo.pop()
            n += node.move is not None
            todo.extend(node.children)
        return n


@dataclass
class Tree:
    game: str
    options: JSONObject
    seed: int
    setup: JSONObject | None
    root: Node

    def to_json(self) -> JSONObject:
        out: JSONObject = {"game": self.game, "options": self.options, "seed": self.seed,
                           "tree": self.root.to_json()}
        if self.setup is not None:
            out["setup"] = self.setup
        return out


def _garbled(at: int, why: str) -> AnalysisError:
    return AnalysisError("analysis_tree_garbled", at=at, why=why)


def _too_big(what: str, most: int) -> AnalysisError:
    return AnalysisError("analysis_tree_too_big", what=what, most=most)


# ---- from the page's JSON ------------------------------------------------------------------
def node_from_json(data: object) -> Node:
    """The page's tree in its flat form (:meth:`Node.to_json`), with the same limits as a
    pasted one."""
    def bad() -> AnalysisError:
        return AnalysisError("analysis_bad_request", field="tree")

    if not isinstance(data, Mapping):
        raise bad()
    comment, rows = data.get("comment", ""), data.get("nodes", [])
    if not isinstance(comment, str) or not isinstance(rows, list):
        raise bad()
    if len(comment) > MAX_COMMENT:
        raise _too_big("comment", MAX_COMMENT)
    if len(rows) > MAX_NODES:
        raise _too_big("nodes", MAX_NODES)
    root = Node(None, comment)
    made: list[Node] = []
    nesting: list[int] = []
    for row in rows:
        if not isinstance(row, list) or len(row) != 3:
            raise bad()
        parent, move, text = row
        if not isinstance(parent, int) or isinstance(parent, bool) \
                or not -1 <= parent < len(made):
            raise bad()
        if not isinstance(move, str) or not move or len(move) > 200 \
                or not isinstance(text, str):
            raise bad()
        if len(text) > MAX_COMMENT:
            raise _too_big("comment", MAX_COMMENT)
        above = root if parent < 0 else made[parent]
        if any(c.move == move for c in above.children):
            raise bad()
        deeper = (0 if parent < 0 else nesting[parent]) + bool(above.children)
        if deeper > MAX_NESTING:
            raise _too_big("nesting", MAX_NESTING)
        node = Node(move, text)
        above.children.append(node)
        made.append(node)
        nesting.append(deeper)
    return root


# ---- writing -------------------------------------------------------------------------------
def _move(text: str) -> str:
    if _BARE.fullmatch(text) and not _NUMBER.fullmatch(text):
        return text
    return json.dumps(text, ensure_ascii=False)


def _comment(text: str) -> str:
    return "{" + text.replace("\\", "\\\\").replace("}", "\\}") + "}"


def _moves(node: Node, ply: int) -> list[str]:
    out: list[str] = []
    n, p = node, ply
    while n.children:
        main, *rest = n.children
        out.append(_one(main, p + 1))
        for alt in rest:
            out.append("(" + " ".join([_one(alt, p + 1), *_moves(alt, p + 1)]) + ")")
        n, p = main, p + 1
    return out


def _one(node: Node, ply: int) -> str:
    assert node.move is not None
    words = f"{ply}. {_move(node.move)}"
    return f"{words} {_comment(node.comment)}" if node.comment else words


def export(tree: Tree) -> str:
    """The tree in the notation above (every variation and comment)."""
    head = [f"[Game {json.dumps(tree.game)}]",
            f"[Options {json.dumps(json.dumps(tree.options, sort_keys=True))}]",
            f"[Seed {json.dumps(str(tree.seed))}]"]
    if tree.setup is not None:
        head.append(f"[Setup {json.dumps(json.dumps(tree.setup, sort_keys=True))}]")
    body = _moves(tree.root, 0)
    if tree.root.comment:
        body.insert(0, _comment(tree.root.comment))
    return "\n".join(head) + "\n\n" + " ".join(body) + "\n"


# ---- reading -------------------------------------------------------------------------------
class _Reader:
    def __init__(self, text: str) -> None:
        self.text, self.i, self.nodes = text, 0, 0

    def skip(self) -> None:
        t, i = self.text, self.i
        while i < len(t) and t[i].isspace():
            i += 1
        self.i = i

    def peek(self) -> str:
        self.skip()
        return self.text[self.i] if self.i < len(self.text) else ""

    def string(self) -> str:
        """A JSON string literal at the cursor."""
        self.skip()
        if self.peek() != '"':
            raise _garbled(self.i, "quote")
        try:
            value, end = json.JSONDecoder().raw_decode(self.text, self.i)
        except ValueError:
            raise _garbled(self.i, "string") from None
        if not isinstance(value, str):
            raise _garbled(self.i, "string")
        self.i = end
        return value

    def comment(self) -> str:
        start = self.i
        self.i += 1  # the "{"
        out: list[str] = []
        t = self.text
        while self.i < len(t):
            ch = t[self.i]
            if ch == "\\" and self.i + 1 < len(t) and t[self.i + 1] in "\\}":
                out.append(t[self.i + 1])
                self.i += 2
                continue
            if ch == "}":
                self.i += 1
                text = "".join(out)
                if len(text) > MAX_COMMENT:
                    raise _too_big("comment", MAX_COMMENT)
                return text
            out.append(ch)
            self.i += 1
        raise _garbled(start, "comment")

    def tags(self) -> dict[str, str]:
        found: dict[str, str] = {}
        while self.peek() == "[":
            start = self.i
            self.i += 1
            m = re.compile(r"\s*([A-Za-z]+)\s+").match(self.text, self.i)
            if not m:
                raise _garbled(start, "tag")
            name = m.group(1)
            self.i = m.end()
            value = self.string()
            if self.peek() != "]":
                raise _garbled(self.i, "tag")
            self.i += 1
            if name in found:
                raise _garbled(start, "tag")
            found[name] = value
        return found

    def move(self) -> str:
        if self.peek() == '"':
            text = self.string()
        else:
            m = _BARE.match(self.text, self.i)
            if not m:
                raise _garbled(self.i, "move")
            text = m.group(0)
            self.i = m.end()
        if not text or len(text) > 200:
            raise _garbled(self.i, "move")
        return text

    def line(self, parent: Node, depth: int) -> None:
        """Moves from ``parent`` on, until ``)`` or the end; a ``(`` adds an alternative to
        the move just read (a sibling, under that move's parent)."""
        last: Node | None = None
        above = parent
        while True:
            ch = self.peek()
            if ch == "" or ch == ")":
                if last is None and depth > 0:
                    raise _garbled(self.i, "empty")
                return
            if ch == "(":
                if last is None:
                    raise _garbled(self.i, "variation")
                if depth >= MAX_NESTING:
                    raise _too_big("nesting", MAX_NESTING)
                start = self.i
                self.i += 1
                self.line(above, depth + 1)
                if self.peek() != ")":
                    raise _garbled(start, "variation")
                self.i += 1
                continue
            if ch == "{":
                raise _garbled(self.i, "comment")
            m = _NUMBER.match(self.text, self.i)
            if m:
                self.i = m.end()
            if self.peek() in ("", "(", ")", "{"):
                raise _garbled(self.i, "move")
            text = self.move()
            self.nodes += 1
            if self.nodes > MAX_NODES:
                raise _too_big("nodes", MAX_NODES)
            node = Node(text)
            if self.peek() == "{":
                node.comment = self.comment()
            if any(c.move == text for c in parent.children):
                raise _garbled(self.i, "twice")  # the same move twice at one place
            parent.children.append(node)
            above, last, parent = parent, node, node


def parse(text: str, game: str | None = None) -> Tree:
    """The tree ``text`` writes (see the module docstring); ``game``: the page's game, which
    the ``Game`` tag must name."""
    if not isinstance(text, str):
        raise AnalysisError("analysis_bad_request", field="notation")
    if len(text) > MAX_TEXT:
        raise _too_big("text", MAX_TEXT)
    reader = _Reader(text)
    tags = reader.tags()
    name = tags.get("Game")
    if name is None:
        raise _garbled(0, "no_game")
    if game is not None and name != game:
        raise AnalysisError("analysis_wrong_game", game=game, record=name[:40])
    try:
        options = json.loads(tags.get("Options", "{}"))
        seed = int(tags.get("Seed", "0"))
        setup = json.loads(tags["Setup"]) if "Setup" in tags else None
    except ValueError:
        raise _garbled(0, "tag") from None
    if not isinstance(options, dict) or not (setup is None or isinstance(setup, dict)):
        raise _garbled(0, "tag")
    root = Node(None)
    if reader.peek() == "{":
        root.comment = reader.comment()
    reader.line(root, 0)
    if reader.peek() != "":
        raise _garbled(reader.i, "unbalanced")
    return Tree(name, _obj(options), seed, None if setup is None else _obj(setup), root)


def _obj(value: JSONObject) -> JSONObject:
    return dict(value)


# ---- share tokens --------------------------------------------------------------------------
def pack(tree: Tree) -> str:
    """The share token of ``tree`` (``analysis_tree_too_big`` beyond :data:`MAX_TOKEN`)."""
    raw = export(tree).encode("utf-8")
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = squeezer.compress(raw) + squeezer.flush()
    token = VERSION + base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")
    if len(token) > MAX_TOKEN:
        raise _too_big("link", MAX_TOKEN)
    return token


def unpack(token: object, game: str | None = None) -> Tree:
    """The tree a share token carries; ``analysis_share_garbled`` for anything else."""
    if not isinstance(token, str) or not token:
        raise AnalysisError("analysis_share_garbled")
    if len(token) > MAX_TOKEN:
        raise _too_big("link", MAX_TOKEN)
    if token[0] != VERSION or not re.fullmatch(r"[A-Za-z0-9_-]*", token[1:]):
        raise AnalysisError("analysis_share_garbled")
    body = token[1:]
    try:
        data = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        inflater = zlib.decompressobj(-15)
        raw = inflater.decompress(data, MAX_TEXT + 1)
        if len(raw) > MAX_TEXT or inflater.unconsumed_tail:
            raise _too_big("text", MAX_TEXT)
        if not inflater.eof:
            raise AnalysisError("analysis_share_garbled")
        text = raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError):
        raise AnalysisError("analysis_share_garbled") from None
    try:
        return parse(text, game)
    except AnalysisError as exc:
        if exc.code == "analysis_tree_garbled":
            raise AnalysisError("analysis_share_garbled") from None
        raise


# ---- checking against the rules ------------------------------------------------------------
def check(tree: Tree) -> None:
    """Every move of every variation is legal where it stands (``analysis_bad_move`` with
    the ply and the move, else nothing): the start is the tags' (options, seed, setup)."""
    from .position import load

    spec: JSONObject = {"game": tree.game, "options": tree.options, "seed": tree.seed}
    if tree.setup is not None:
        spec["setup"] = tree.setup
    start = load(spec).state
    todo = [(tree.root, start, 0)]
    while todo:
        node, state, ply = todo.pop()
        for child in node.children:
            assert child.move is not None
            if state.is_over:
                raise AnalysisError("analysis_bad_move", ply=ply + 1, move=child.move[:40],
                                    reason="over")
            try:
                after = state.play(child.move, state.acting_seats[0])
            except MoveError as exc:
                raise AnalysisError("analysis_bad_move", ply=ply + 1, move=child.move[:40],
                                    reason=exc.code) from None
            todo.append((child, after, ply + 1))
