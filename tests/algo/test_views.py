"""Hidden information stays hidden: in every variant no view carries a number its seat
may not know, and states differing only in secrets give a seat identical views (and the
same bot move)."""

from __future__ import annotations

import pytest

from asobiba.core import Rng
from asobiba.games import get
from asobiba.games.algo import AlgoState
from asobiba.games.algo.cards import is_joker
from tests.conformance import assert_views_equal_for

GAME = get("algo")
VARIANTS = [{}, {"players": 3}, {"players": 4}, {"variant": "pair"}, {"players": 5},
            {"players": 7}, {"jokers": True}, {"sets": 2}, {"colours": 3},
            {"chips": True, "jokers": True, "players": 4}]


def walk(options: dict, seed: int, steps: int = 400) -> list[AlgoState]:
    s = GAME.new_game(options, seed)
    out = [s]
    rng = Rng(seed, "views")
    while not s.is_over and len(out) < steps:
        moves = s.legal_moves().texts()
        s = s.play(moves[rng.below(len(moves))])
        out.append(s)
    return out


def may_know(s: AlgoState, seat: int | None, owner: int, sid: int, up: bool) -> bool:
    """During play: face up, own, or shown; after the game every card is shown to all
    (docs/rules/algo.md § 8; tests/algo/test_end_reveal.py)."""
    return up or s.is_over or (seat is not None and (seat == owner or sid in s.seen[seat]))


@pytest.mark.parametrize("options", VARIANTS)
def test_views_never_carry_another_seats_hidden_number(options: dict) -> None:
    for seed in range(2):
        for s in walk(options, seed):
            for seat in [None, *range(s.num_seats)]:
                view = s.view(seat)
                for owner, (row, vrow) in enumerate(zip(s.rows, view["rows"], strict=True)):
                    if s.phase == "setup" and owner != seat:
                        assert vrow == []       # rows are laid out in private
                        continue
                    for (sid, _, up), vs in zip(row, vrow, strict=True):
                        assert ("number" in vs) == may_know(s, seat, owner, sid, up)
                if view["hand"] is not None:
                    assert ("number" in view["hand"]) == (seat == s.turn or s.is_over)
                if view["placing"] is not None:
                    owner, _, up = s.placing  # type: ignore[misc]
                    assert ("number" in view["placing"]) == (up or seat == owner
                                                             or s.is_over)
                for e in view["log"]:
                    if e["event"] == "insert":
                        assert ("number" in e) == e["up"]
                    if e["event"] in ("show", "use", "draw"):
                        assert "number" not in e
                assert "pile_full" not in view and "rows_full" not in view
                if not s.is_over:       # chips during play: 10 per public hit, nothing more
                    hits = [sum(1 for e in view["log"] if e["event"] == "attack"
                                and e["hit"] and e["seat"] == x) for x in range(s.num_seats)]
                    assert view["chips"] == [10 * h for h in hits]


def _ordered(s: AlgoState, keys: list[int]) -> bool:
    regular = [k for k in keys if not is_joker(k, s.colours, s.jokers)]
    return regular == sorted(regular)


def swapped(s: AlgoState, viewer: int) -> AlgoState | None:
    """The same position with one secret of another seat exchanged for an equally
    coloured unseen card (the pile's, or another hidden card), order kept."""
    c = s.colours
    secret = [(o, p) for o in range(s.num_seats) if o != viewer
              for p, (sid, _, up) in enumerate(s.rows[o])
              if not up and sid not in s.seen[viewer] and sid != s.held]
    pile = list(range(s.pile_pos, len(s.pile)))
    for o, p in secret:
        k = s.rows[o][p][1]
        for q in pile:
            k2 = s.pile[q]
            if k2 % c == k % c and k2 != k:
                keys = s.row_keys(o)
                keys[p] = k2
                if _ordered(s, keys):
                    rows = list(s.rows)
                    sid, _, up = rows[o][p]
                    rows[o] = rows[o][:p] + ((sid, k2, up),) + rows[o][p + 1:]
                    new_pile = list(s.pile)
                    new_pile[q] = k
                    return s._copy(rows=tuple(rows), pile=tuple(new_pile))
        for o2, p2 in secret:
            k2 = s.rows[o2][p2][1]
            if o2 == o or k2 % c != k % c or k2 == k:
                continue
            a, b = s.row_keys(o), s.row_keys(o2)
            a[p], b[p2] = k2, k
            if _ordered(s, a) and _ordered(s, b):
                rows = list(s.rows)
                sid, _, up = rows[o][p]
                rows[o] = rows[o][:p] + ((sid, k2, up),) + rows[o][p + 1:]
                sid2, _, up2 = rows[o2][p2]
                rows[o2] = rows[o2][:p2] + ((sid2, k, up2),) + rows[o2][p2 + 1:]
                return s._copy(rows=tuple(rows))
    return None


@pytest.mark.parametrize("options", VARIANTS)
def test_secrets_of_others_do_not_change_a_seats_view_or_its_bots_move(options: dict) -> None:
    checked = 0
    for seed in range(2):
        for s in walk(options, seed, 60)[::7]:
            if s.is_over or s.phase == "setup":
                continue
            for viewer in range(min(s.num_seats, 4)):
                other = swapped(s, viewer)
                if other is None:
                    continue
                assert s.to_json() != other.to_json()
                assert_views_equal_for(viewer, s, other)
                if viewer in s.acting_seats:
                    levels = ("3",) if s.num_seats > 4 else ("3", "4")
                    for level in levels:
                        a, b = GAME.make_bot(level, 5), GAME.make_bot(level, 5)
                        a.reset(viewer, s.options)
                        b.reset(viewer, s.options)
                        assert a.choose(s.view(viewer)) == b.choose(other.view(viewer))
                checked += 1
    assert checked > 0


def test_joker_layout_leaves_no_trace_in_other_views() -> None:
    """After the layout, a row holding a joker looks exactly like one without: same ids,
    no log entry, and during the layout other rows are not shown at all."""
    from tests.algo.helpers import dealt

    a = dealt(["b1 b6 b4 b7", "w0 w1 w2 w3"], "b9", jokers=True)
    b = dealt(["b1 b3 b4 b7", "w0 w1 w2 w3"], "b9", jokers=True)
    assert a.view(1)["rows"][0] == [] and a.view(None)["rows"][0] == []
    a = a.play("place 2")                   # b1 J b4 b7
    b = b.play("ready")                     # b1 b3 b4 b7
    assert a.view(1)["rows"][0] == []       # B sees nothing until every row is laid out
    a, b = a.play("ready"), b.play("ready")
    assert a.to_json() != b.to_json()
    for viewer in (1, None):
        assert_views_equal_for(viewer, a, b)


def _canonical(view: dict, log_from: int) -> str:
    """The view as canonical JSON, its log from entry ``log_from`` on."""
    import json

    return json.dumps({**view, "log": view["log"][log_from:]}, sort_keys=True)


@pytest.mark.parametrize("options", VARIANTS + [{"variant": "pair", "jokers": True},
                                                 {"aid": True}])
def test_view_key_is_the_view_exactly(options: dict) -> None:
    """AlgoState.view_key (the OpenSpiel information state's short form of a view) equals
    for two states exactly when their views do: over every state of random games and every
    seat, equal keys <=> equal views, with the whole log and with only the entries added
    since the step before. Deals that look alike to a seat make the sample hold equal views
    of different states (hand=1 with many seeds), so a key that said more than the view
    (a leak) fails the '<=' direction, and one that said less fails '=>'."""
    opts = dict(options)
    if "variant" in opts:
        opts = {**GAME.variants[opts.pop("variant")], **opts}
    cases = [(opts, seed, 400) for seed in range(6)]
    if "hand" not in opts and opts.get("mode") != "pair" and not opts.get("jokers"):
        cases += [({**opts, "hand": 1}, seed, 12) for seed in range(30)]
    key_to_view: dict[tuple[int, bytes], str] = {}  # the seat is the caller's
    view_to_key: dict[str, tuple[int, bytes]] = {}
    equal_views_of_different_states = 0
    view_states: dict[str, str] = {}
    for case_opts, seed, steps in cases:
        states = walk(case_opts, seed, steps)
        for i, s in enumerate(states):
            before = states[i - 1] if i else None
            for seat in range(s.num_seats):
                view = s.view(seat)
                for log_from in {0, 0 if before is None else len(before.log)}:
                    key = (seat, s.view_key(seat, log_from))
                    text = _canonical(view, log_from)
                    assert key_to_view.setdefault(key, text) == text
                    assert view_to_key.setdefault(text, key) == key
                full = repr(s.to_json())
                if view_states.setdefault(_canonical(view, 0), full) != full:
                    equal_views_of_different_states += 1
                if before is not None:
                    assert s.view_step_key(seat, before) == s.view_key(seat, len(before.log))
                    assert s.log[:len(before.log)] == before.log  # the log only grows
    if any(c[0].get("hand") == 1 for c in cases) and opts.get("players", 2) <= 3:
        assert equal_views_of_different_states, "no two states a seat cannot tell apart"
