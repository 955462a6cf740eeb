"""Hidden information stays hidden in move feedback: for Memory Matrix, Algo and Patapata two
true games that differ only in what the mover cannot know give identical feedback, and the
evaluators of those games are handed the mover's views, never a state."""

from __future__ import annotations

from typing import Any

from asobiba.games import get
from asobiba.play.runner import play_game
from asobiba.progression import feedback
from asobiba.progression.feedback import evaluator_for, move_feedback


def _key(colour: str, number: int) -> int:
    return number * 2 + "bw".index(colour)


def _deck(enemy_first: int, spare: int) -> list[int]:
    """Seat A: b0 w1 b5 w8; seat B: black ``enemy_first``, w6, b9, w10; A draws w11 first;
    ``spare`` (black) goes to the bottom of the pile."""
    a = [_key("b", 0), _key("w", 1), _key("b", 5), _key("w", 8)]
    b = [enemy_first, _key("w", 6), _key("b", 9), _key("w", 10)]
    used = set(a + b + [_key("w", 11), spare])
    rest = [k for k in range(24) if k not in used]
    return a + b + [_key("w", 11)] + rest + [spare]


def test_algo_two_deals_differing_only_in_an_enemy_secret_give_the_same_feedback() -> None:
    """B's leftmost card is b2 in one deal and b3 in the other (the other card lies at the
    bottom of the pile): A's view is the same, so every attack gets the same feedback —
    although ``attack B1=2`` hits in one game and misses in the other."""
    from asobiba.games.algo.game import deal_from

    options = get("algo").validate_options({"players": 2})
    one = deal_from(options, _deck(_key("b", 2), _key("b", 3)))
    two = deal_from(options, _deck(_key("b", 3), _key("b", 2)))
    assert one.view(0) == two.view(0)
    assert one.to_json() != two.to_json()
    hit = one.play("attack B1=2")
    miss = two.play("attack B1=2")
    assert hit.view(0)["rows"][1][0]["up"] and not miss.view(0)["rows"][1][0].get("up")
    for move in one.legal_moves(0).texts():
        assert move_feedback(one, move) == move_feedback(two, move), move


def _swap_hidden(state: Any) -> Any:
    """The same Memory Matrix position with the colours beneath two white pieces of
    different owners swapped: what nobody sees without having watched."""
    from asobiba.games.memory_matrix.rules import Pos
    from asobiba.games.memory_matrix.state import MemoryMatrixState

    pos = state.pos
    white = pos.occ & ~pos.up & ~pos.neutral
    cells = [i for i in range(white.bit_length()) if white >> i & 1]
    owner = {i: next(c for c, m in enumerate(pos.ident) if m >> i & 1) for i in cells}
    pair = next(((i, j) for i in cells for j in cells if owner[i] != owner[j]), None)
    if pair is None:
        return None
    i, j = pair
    ident = list(pos.ident)
    ident[owner[i]] ^= (1 << i) | (1 << j)
    ident[owner[j]] ^= (1 << i) | (1 << j)
    new = Pos(pos.occ, pos.up, tuple(ident), pos.neutral, pos.hand, pos.turn)
    return MemoryMatrixState(state.cfg, new, state.options, state.last, state.ply)


def test_memory_matrix_feedback_uses_the_movers_memory_not_the_true_colours() -> None:
    """Swap the colours beneath two white pieces in the position to move: the seat's view
    is the same, and so is the feedback on every move — the evaluator reads what the seat
    saw from the start (its memory), never the position itself."""
    game = get("memory_matrix")
    options = {"players": 2, "shape": "6x6"}
    res = play_game(game, [game.make_bot("2", 1), game.make_bot("2", 2)], options, 4)
    checked = 0
    for k in range(6, len(res.states) - 1, 5):
        state = res.states[k]
        other = _swap_hidden(state)
        if other is None or len(state.legal_moves()) < 2:
            continue
        seat = state.to_move
        assert other.view(seat) == state.view(seat)
        assert other.to_json() != state.to_json()
        real = res.states[: k + 1]
        fake = [*res.states[:k], other]
        for move in state.legal_moves().texts()[:6]:
            assert move_feedback(state, move, history=real) == \
                move_feedback(other, move, history=fake), (k, move)
        checked += 1
    assert checked >= 3


def test_patapata_dice_still_to_roll_do_not_change_the_feedback() -> None:
    """Two dice courses with the same first task and different rolls after it: on the
    first task the feedback is the same (the futures averaged over are drawn without the
    game's seed)."""
    from asobiba.games.patapata.tasks import dice_course

    seeds = [s for s in range(40) if dice_course(s)[0] == dice_course(0)[0]]
    other = next(s for s in seeds if dice_course(s) != dice_course(0))
    game = get("patapata")
    a, b = game.new_game({}, 0), game.new_game({}, other)
    assert a.view(0) == b.view(0)
    moves = a.legal_moves(0).texts()
    for move in ["pass", moves[1], moves[len(moves) // 2]]:
        assert move_feedback(a, move, seat=0) == move_feedback(b, move, seat=0)


def test_view_evaluators_are_handed_views_only() -> None:
    """The seam itself: a hidden-information evaluator receives the seat's views (plain
    dicts equal to ``view(seat)``), never a state."""
    game = get("algo")
    states = [game.new_game({}, 3)]
    states.append(states[-1].play(states[-1].legal_moves().texts()[0]))
    seen: list[Any] = []

    class Spy:
        sees = "views"

        def values_from_views(self, views: Any, played: Any = None) -> dict[str, float]:
            seen.extend(views)
            return dict.fromkeys(views[-1]["legal_moves"], 0.0)

    seat = states[-1].to_move
    assert seat is not None
    feedback.values_for(Spy(), states, seat)
    assert seen == [st.view(seat) for st in states]
    assert all(type(v) is dict for v in seen)
    for game_id, options in [("algo", {}), ("memory_matrix", {}), ("patapata", {})]:
        assert feedback.sees_views(evaluator_for(game_id, options))
    assert not feedback.sees_views(evaluator_for("flipflop", {"board": "5x5"}))
