"""Issue 29 item 1: the analysis board's move tree as notation and as a share token. Export
then paste gives back the same tree, for random trees of every game (variations, comments
with the notation's own characters in them); garbled, hostile and oversized texts and tokens
are refused with codes, and nothing is built."""

from __future__ import annotations

import base64
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asobiba.analysis import AnalysisError
from asobiba.analysis.tree import (
    MAX_NESTING,
    MAX_NODES,
    MAX_TEXT,
    MAX_TOKEN,
    Node,
    Tree,
    check,
    export,
    node_from_json,
    pack,
    parse,
    unpack,
)
from asobiba.core import State
from asobiba.games import available, get

GAMES = list(available())
TWO_PLAYER = [g for g in GAMES if get(g).new_game({}, 0).num_seats == 2]

COMMENTS = st.text(alphabet=st.sampled_from(list("ab {}\\\"()[]; 1.\n\t") + ["手", "é"]),
                   max_size=12)


def random_tree(game_id: str, data: st.DataObject) -> Tree:
    seed = data.draw(st.integers(0, 50), label="seed")
    start = get(game_id).new_game({}, seed)
    root = Node(None, data.draw(COMMENTS, label="root comment"))
    places: list[tuple[Node, State]] = [(root, start)]
    for _ in range(data.draw(st.integers(0, 24), label="moves")):
        node, state = places[data.draw(st.integers(0, len(places) - 1))]
        if state.is_over:
            continue
        seat = state.acting_seats[0]
        taken = {c.move for c in node.children}
        texts = [t for t in (state.move_text(m, seat) for m in state.legal_moves(seat))
                 if t not in taken]
        if not texts:
            continue
        text = data.draw(st.sampled_from(texts))
        child = Node(text, data.draw(COMMENTS))
        node.children.append(child)
        places.append((child, state.play(text, seat)))
    return Tree(game_id, dict(start.options), seed, None, root)


@pytest.mark.parametrize("game_id", TWO_PLAYER + [g for g in GAMES if g not in TWO_PLAYER])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_export_then_paste_gives_back_the_same_tree(game_id: str, data: st.DataObject) -> None:
    tree = random_tree(game_id, data)
    text = export(tree)
    back = parse(text, game_id)
    assert back == tree, text
    check(back)  # every move of every variation replays
    assert unpack(pack(tree), game_id) == tree
    # the page's JSON of the tree reads back to the same nodes
    assert node_from_json(tree.root.to_json()) == tree.root


def test_the_notation_reads_as_documented() -> None:
    text = ('[Game "reversi"]\n[Options "{}"]\n[Seed "0"]\n\n'
            '{start} 1. d3 {a \\} brace} (1. c4 {other} 2. c3 (2. e3)) 2. c5 3... "b6"')
    tree = parse(text, "reversi")
    root = tree.root
    assert root.comment == "start"
    assert [c.move for c in root.children] == ["d3", "c4"]
    assert root.children[0].comment == "a } brace"
    assert [c.move for c in root.children[1].children] == ["c3", "e3"]
    assert [c.move for c in root.children[0].children] == ["c5"]
    assert root.children[0].children[0].children[0].move == "b6"
    check(tree)


@pytest.mark.parametrize(("text", "code", "args"), [
    ("1. d3", "analysis_tree_garbled", {"at": 0, "why": "no_game"}),
    ('[Game "reversi"] 1. d3 (', "analysis_tree_garbled", {"at": 24, "why": "empty"}),
    ('[Game "reversi"] 1. d3 )', "analysis_tree_garbled", {"at": 23, "why": "unbalanced"}),
    ('[Game "reversi"] (1. d3)', "analysis_tree_garbled", {"at": 17, "why": "variation"}),
    ('[Game "reversi"] 1. d3 {open', "analysis_tree_garbled", {"at": 23, "why": "comment"}),
    ('[Game "reversi"] 1. d3 (1. d3)', "analysis_tree_garbled", {"at": 29, "why": "twice"}),
    ('[Game "reversi"] 1. "d3', "analysis_tree_garbled", {"at": 20, "why": "string"}),
    ('[Game "reversi"] [Game "reversi"]', "analysis_tree_garbled", {"at": 17, "why": "tag"}),
    ('[Game "reversi"] [Options "[1]"]', "analysis_tree_garbled", {"at": 0, "why": "tag"}),
    ('[Game "algo"] 1. d3', "analysis_wrong_game", {"game": "reversi", "record": "algo"}),
    ('[Game "reversi"] 1. d3 {' + "x" * 501 + "}", "analysis_tree_too_big",
     {"what": "comment", "most": 500}),
])
def test_garbled_notation_is_refused_with_a_code(text: str, code: str,
                                                 args: dict[str, object]) -> None:
    with pytest.raises(AnalysisError) as err:
        parse(text, "reversi")
    assert (err.value.code, err.value.args_) == (code, args)


def test_hostile_sizes_are_refused_before_work() -> None:
    with pytest.raises(AnalysisError) as err:
        parse("[Game \"reversi\"]" + " " * MAX_TEXT, "reversi")
    assert err.value.code == "analysis_tree_too_big" and err.value.args_["what"] == "text"
    deep = '[Game "reversi"] 1. d3 ' + "".join(f"(1. m{i} " for i in range(MAX_NESTING + 1))
    with pytest.raises(AnalysisError) as err:
        parse(deep, "reversi")
    assert err.value.args_ == {"what": "nesting", "most": MAX_NESTING}
    many = '[Game "reversi"] ' + " ".join(f"m{i}" for i in range(MAX_NODES + 1))
    with pytest.raises(AnalysisError) as err:
        parse(many, "reversi")
    assert err.value.args_ == {"what": "nodes", "most": MAX_NODES}
    # the page's JSON (flat): a line longer than the recursion limit is read …
    rows = [[i - 1, f"m{i}", ""] for i in range(1500)]
    assert node_from_json({"comment": "", "nodes": rows}).count() == 1500
    assert node_from_json({"nodes": rows}).to_json()["nodes"] == rows
    with pytest.raises(AnalysisError) as err:  # … but not one too big
        node_from_json({"nodes": [[-1, f"m{i}", ""] for i in range(MAX_NODES + 1)]})
    assert err.value.code == "analysis_tree_too_big"
    for hostile in ({"nodes": [[0, "d3", ""]]}, {"nodes": [[-1, "d3", ""], [-1, "d3", ""]]},
                    {"nodes": [[-1, 3, ""]]}, {"nodes": "x"}, [], {"nodes": [[-1, "d3"]]}):
        with pytest.raises(AnalysisError) as err:
            node_from_json(hostile)
        assert err.value.to_json() == {"code": "analysis_bad_request",
                                       "args": {"field": "tree"}}


def test_illegal_moves_in_a_variation_are_refused() -> None:
    tree = parse('[Game "reversi"] 1. d3 (1. c4 2. a1) 2. c5', "reversi")
    with pytest.raises(AnalysisError) as err:
        check(tree)
    assert err.value.to_json() == {"code": "analysis_bad_move", "args": {
        "ply": 2, "move": "a1", "reason": "illegal"}}


def _token(raw: bytes) -> str:
    squeezer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = squeezer.compress(raw) + squeezer.flush()
    return "1" + base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize("token", [
    "", "2abc", "1ab$c", "1" + "A" * 10, _token(b"\xff\xfe not utf-8"), _token(b"1. d3"),
    _token(b'[Game "reversi"] 1. d3 ('), _token(b'[Game "reversi"] 1. d3')[:-3], 42,
])
def test_garbled_share_tokens_are_refused(token: object) -> None:
    with pytest.raises(AnalysisError) as err:
        unpack(token, "reversi")
    assert err.value.to_json() == {"code": "analysis_share_garbled", "args": {}}


def test_share_tokens_are_capped_both_ways() -> None:
    bomb = _token(b'[Game "reversi"] {' + b"x" * (MAX_TEXT * 4) + b"}")
    assert len(bomb) < MAX_TOKEN  # small on the wire, huge inflated: refused
    with pytest.raises(AnalysisError) as err:
        unpack(bomb, "reversi")
    assert err.value.args_ == {"what": "text", "most": MAX_TEXT}
    with pytest.raises(AnalysisError) as err:
        unpack("1" + "A" * MAX_TOKEN, "reversi")
    assert err.value.args_ == {"what": "link", "most": MAX_TOKEN}
    # a tree whose token would be too long is refused when packing, with the same code
    import random

    rnd = random.Random(1)
    root = Node(None, "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789")
                              for _ in range(500)))
    for i in range(40):
        root.children.append(Node(f"m{i}", "".join(
            rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(500))))
    with pytest.raises(AnalysisError) as err:
        pack(Tree("reversi", {}, 0, None, root))
    assert err.value.args_ == {"what": "link", "most": MAX_TOKEN}


def test_a_share_token_is_compact() -> None:
    from asobiba.core import RandomBot
    from asobiba.play.runner import play_game

    record = play_game(get("reversi"), [RandomBot(1), RandomBot(2)], {}, 5).record
    root = Node(None)
    node = root
    for m in record.moves:
        node.children.append(Node(m.move))
        node = node.children[0]
    token = pack(Tree("reversi", {}, 0, None, root))
    assert len(token) < 400, len(token)  # a whole game of 60 moves in a few hundred chars
