"""The one game loop (issue 17 items 3 and 7): ``play/runner.play_game`` with an opening,
views built only for observers that need them, bots reading the state only where it holds
no more than their view, and the one reverse-match scorer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from asobiba.core import Bot, RandomBot, Rng, State
from asobiba.games import available, get
from asobiba.play.reverse import play_reverse, reverse_winner, score_reverse
from asobiba.play.runner import play_game


class ViewOnlyRandom(RandomBot):
    """RandomBot that must choose from views (the slow path) and counts what it is shown."""

    reads_state = False

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = Rng(seed, "bot", "RandomBot")  # RandomBot's own stream of draws
        self.observed = 0

    def observe(self, view: Mapping[str, Any]) -> None:
        self.observed += 1


class NoStateBot(RandomBot):
    """Fails the test if the runner ever hands it a state."""

    def choose_state(self, state: State) -> str:
        raise AssertionError("a hidden-information game handed a bot its state")


@pytest.mark.parametrize("game_id", [g for g in available() if get(g).perfect_information])
def test_reading_the_state_plays_the_same_game_as_reading_views(game_id: str) -> None:
    """Perfect information: a state-reading bot sees what its view shows, so the games are
    move for move the same."""
    game = get(game_id)
    fast = play_game(game, [RandomBot(3), RandomBot(4)], {}, 7)
    slow = play_game(game, [ViewOnlyRandom(3), ViewOnlyRandom(4)], {}, 7)
    assert [m.move for m in fast.moves] == [m.move for m in slow.moves]
    assert fast.record.result == slow.record.result


@pytest.mark.parametrize("game_id",
                         [g for g in available() if not get(g).perfect_information])
def test_hidden_information_games_never_hand_a_bot_the_state(game_id: str) -> None:
    game = get(game_id)
    options = dict(game.progression().ladder_options)
    result = play_game(game, [NoStateBot(1), NoStateBot(2)], options, 5)
    assert result.states[-1].is_over


def test_views_go_only_to_bots_that_keep_memory() -> None:
    game = get("reversi")
    watcher = ViewOnlyRandom(1)
    result = play_game(game, [watcher, RandomBot(2)], {}, 0)
    assert watcher.observed == len(result.moves) + 1  # the start and after every move


def test_opening_is_played_before_the_bots_and_seen_by_them() -> None:
    game = get("reversi")
    watcher = ViewOnlyRandom(1)
    result = play_game(game, [watcher, RandomBot(2)], {}, 0,
                       opening=[(0, "d3"), (1, "c5"), "f6"])
    assert [m.move for m in result.moves[:3]] == ["d3", "c5", "f6"]
    assert [m.seat for m in result.moves[:3]] == [0, 1, 0]
    assert watcher.observed == len(result.moves) + 1


def test_an_illegal_opening_move_is_refused() -> None:
    from asobiba.core import IllegalMoveError

    with pytest.raises(IllegalMoveError):
        play_game(get("reversi"), [RandomBot(1), RandomBot(2)], {}, 0, opening=["a1"])


def test_rule_reverse_match_totals_then_tiebreak_then_draw() -> None:
    """Seed §8: the higher summed total wins; equal totals go to the summed tie-break."""
    assert reverse_winner((70, 58), (0, 9)) == 0
    assert reverse_winner((60, 68), (9, 0)) == 1
    assert reverse_winner((64, 64), (3, 2)) == 0
    assert reverse_winner((64, 64), (2, 2)) is None


def test_play_reverse_swaps_seats_and_scores_both_games() -> None:
    game = get("reversi")

    def maker(base: int) -> Any:
        return lambda leg, seat: RandomBot(base + 10 * leg + seat)

    scored, results = play_reverse(game, maker(100), maker(200), {}, 11)
    assert len(results) == 2
    first, second = (r.states[-1].outcome for r in results)
    assert first is not None and second is not None
    assert scored.totals == (first.scores[0] + second.scores[1],
                             first.scores[1] + second.scores[0])
    assert scored == score_reverse(game, [(results[0].states[-1], 0),
                                          (results[1].states[-1], 1)])


def test_rule_reverse_match_tiebreak_is_captures_in_reverstargo() -> None:
    game = get("reverstargo")
    scored, results = play_reverse(game, lambda leg, seat: RandomBot(leg),
                                   lambda leg, seat: RandomBot(5 + leg), {}, 3)
    finals = [r.states[-1] for r in results]
    caps = [f.view(None)["captured"] for f in finals]
    assert scored.tiebreaks == (float(caps[0][0] + caps[1][1]), float(caps[0][1] + caps[1][0]))


def test_reversi_legal_moves_are_computed_on_first_use() -> None:
    state = get("reversi").new_game()
    child = state.child(state.legal_moves()[0])
    assert child._moves is None  # nothing computed for a state nobody asked
    assert len(child.legal_moves()) == 3 and child._moves is not None


def test_bot_base_refuses_state_reading_by_default() -> None:
    class Plain(Bot):
        def choose(self, view: Mapping[str, Any]) -> str:
            return str(view["legal_moves"][0])

    with pytest.raises(NotImplementedError):
        Plain().choose_state(get("reversi").new_game())


# ---- the one bot-turn step (issue 17 item 3: the server's bot turns use it too) -------------

class Illegal(Bot):
    """Chooses a move that is never legal."""

    name = "illegal"

    def choose(self, view: Mapping[str, Any]) -> str:
        return "z9"


class Crashing(Bot):
    name = "crashing"

    def choose(self, view: Mapping[str, Any]) -> str:
        raise RuntimeError("boom")


def test_bot_turn_plays_the_bots_own_move_and_times_it() -> None:
    from asobiba.play.runner import bot_turn

    state = get("reversi").new_game({}, 3)
    bot = ViewOnlyRandom(5)
    bot.reset(0, state.options)
    turn = bot_turn(state, 0, bot)
    assert turn.fallback is None and turn.note(0) is None
    assert turn.text in state.legal_moves(0).texts()
    assert turn.after.view(0) == state.play(turn.text, 0).view(0)
    assert turn.seconds is not None and turn.seconds >= 0


def test_rule_without_a_fallback_an_illegal_bot_move_is_an_error() -> None:
    """The arena's rule: a bot that plays an illegal move cannot be scored — an error,
    in bot_turn and so in play_game."""
    from asobiba.core import MoveError
    from asobiba.play.runner import bot_turn

    state = get("reversi").new_game({}, 3)
    with pytest.raises(MoveError):
        bot_turn(state, 0, Illegal())
    with pytest.raises(MoveError):
        play_game(get("reversi"), [Illegal(), RandomBot(1)], seed=3)
    with pytest.raises(RuntimeError, match="boom"):
        bot_turn(state, 0, Crashing())


def test_rule_with_a_fallback_a_failing_bot_plays_a_seeded_random_legal_move() -> None:
    """The server's rule: an illegal move or a crash gives the seeded random legal move of
    the fallback stream (the same every time), and the turn says why."""
    from asobiba.play.runner import bot_turn, settle

    state = get("reversi").new_game({}, 3)
    legal = state.legal_moves(0).texts()
    expected = legal[Rng(9, "fallback").below(len(legal))]
    illegal = bot_turn(state, 0, Illegal(), fallback=Rng(9, "fallback"))
    assert (illegal.text, illegal.fallback) == (expected, "illegal")
    assert illegal.note(0) == ("the bot in seat 0 chose an illegal move; it played a random "
                               "legal move")
    assert "z9" not in (illegal.note(0) or "")  # an illegal move's text is never repeated
    crash = bot_turn(state, 0, Crashing(), fallback=Rng(9, "fallback"))
    assert (crash.text, crash.fallback, crash.detail) == (expected, "crash", "RuntimeError")
    assert crash.seconds is None
    late = settle(state, 0, None, failure="timeout", detail="no answer within 1 s",
                  fallback=Rng(9, "fallback"))
    assert late.text == expected and late.note(0) == (
        "the bot in seat 0 timed out (no answer within 1 s); it played a random legal move")
    assert late.after.view(1) == state.play(expected, 0).view(1)
