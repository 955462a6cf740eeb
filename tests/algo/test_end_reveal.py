"""Issue 27: at the end of an Algo game every card is turned face up for everyone — the
winner's unguessed cards included — while during the game nothing hidden leaks
(docs/rules/algo.md § 8, "After the game")."""

from __future__ import annotations

import pytest

from asobiba.games import get
from asobiba.games.algo import AlgoState
from asobiba.games.algo.cards import card_name
from tests.algo.test_views import VARIANTS, may_know, walk

GAME = get("algo")


@pytest.mark.parametrize("options", VARIANTS)
def test_the_finished_view_shows_every_card_to_every_seat_and_spectators(options: dict) -> None:
    finished = 0
    for seed in range(3):
        states = walk(options, seed, 2000)
        final = states[-1]
        if not final.is_over:
            continue
        finished += 1
        assert isinstance(final, AlgoState)
        hidden_at_end = [(o, sid) for o, row in enumerate(final.rows)
                         for sid, _, up in row if not up]
        assert hidden_at_end  # the winner still holds face-down cards
        for seat in [None, *range(final.num_seats)]:
            view = final.view(seat)
            for owner, (row, vrow) in enumerate(zip(final.rows, view["rows"], strict=True)):
                for (sid, card, up), vs in zip(row, vrow, strict=True):
                    assert vs["number"] == card // final.colours, (seat, owner, sid)
                    assert vs.get("revealed", False) == (not up)
            remaining = final.pile[final.pile_pos:]
            assert view["pile"]["cards"] == [card_name(k, final.colours) for k in remaining]
        # the state before the last move still hides the winner's cards from the others
        before = states[-2]
        for owner, sid in hidden_at_end:
            if all(i != sid for i, _, _ in before.rows[owner]):
                continue  # inserted by the last move
            for seat in [None, *range(before.num_seats)]:
                slot = next(v for v in before.view(seat)["rows"][owner] if v["id"] == sid)
                up = next(u for i, _, u in before.rows[owner] if i == sid)
                assert ("number" in slot) == may_know(before, seat, owner, sid, up)
                assert "revealed" not in slot
    assert finished >= 1


def test_a_spectator_sees_a_winners_unguessed_card_only_after_the_game() -> None:
    states = walk({}, 0, 2000)
    final = states[-1]
    assert final.is_over
    winner = final.outcome.winners[0]
    down = [sid for sid, _, up in final.rows[winner] if not up]
    assert down
    before = states[-2]
    loser = next(s for s in range(final.num_seats) if s != winner)
    for seat in (None, loser):
        assert all("number" not in v for v in before.view(seat)["rows"][winner]
                   if v["id"] in down and v["id"] not in (before.seen[seat] if seat is not None
                                                          else ()))
        assert all("number" in v for v in final.view(seat)["rows"][winner])
