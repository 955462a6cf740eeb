"""Issue 14 item 8: `asobiba play` with several people at one terminal (hot-seat). When a
seat's turn comes, after the hand-over screen, it is shown what that person would have seen
at the table since their last turn — every move and its visible effect, from view(seat) only
(docs/fair-play.md, "The terminal"). Driven through the CLI with scripted input."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from asobiba.cli.main import app
from asobiba.games import get

runner = CliRunner()
HAND_OVER = re.compile(r"Hand the device to seat (\d+), then press Enter\.")


def _script(game_id: str, options: dict, seed: int, plies: int, pick) -> tuple[list, str]:
    """The states of a hot-seat game whose people play ``pick(legal)``, and the typed input
    (an Enter at each hand-over, then the move)."""
    game = get(game_id)
    state = game.new_game(game.validate_options(options), seed)
    states, lines, last = [state], [], None
    while not state.is_over and len(states) <= plies:
        seat = state.acting_seats[0]
        if last is not None and last != seat:
            lines.append("")
        text = pick(state.legal_moves(seat).texts())
        lines.append(text)
        state = state.play(text, seat)
        states.append(state)
        last = seat
    if not state.is_over and state.acting_seats[0] != last:
        lines.append("")  # the last hand-over: the next seat's catch-up is printed too
    return states, "\n".join(lines) + "\n"


def _segments(out: str, first_seat: int) -> list[tuple[int, str]]:
    """The output cut at each hand-over screen: (the seat at the terminal, what it saw)."""
    parts = HAND_OVER.split(out)
    segs = [(first_seat, parts[0])]
    segs += [(int(parts[i]), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]
    return segs


def _play(tmp_path: Path, game_id: str, options: dict, seed: int, plies: int, pick):
    states, typed = _script(game_id, options, seed, plies, pick)
    args = ["play", game_id, "--seed", str(seed), "--save", str(tmp_path / "r.json")]
    for k, v in options.items():
        args += ["-o", f"{k}={str(v).lower()}"]
    res = runner.invoke(app, args, input=typed)
    assert res.exit_code == 0, res.output
    assert "not played" not in res.output, res.output
    return states, res.output


def _check_each_seat_saw_its_own_views(game_id: str, states: list, out: str) -> int:
    game = get(game_id)
    segs = _segments(out, states[0].acting_seats[0])
    assert len(segs) >= 4, out
    # which states each segment must show: those since the seat's previous segment
    seen = {s: 0 for s in range(states[0].num_seats)}
    shown = 0
    differing = 0
    position = 0  # index in states of the position the segment's seat moves in
    for seat, text in segs:
        # what this seat may see: its own views and the public (spectator) ones
        own_lines = {line for st in states for who in (seat, None)
                     for line in game.render_view(st.view(who)).splitlines()}
        # the segment's seat moves in the position after every move so far: find it as the
        # first state at or after ``position`` where this seat acts
        while seat not in states[position].acting_seats:
            position += 1
        for i in range(seen[seat] + 1, position + 1):
            mine = game.render_view(states[i].view(seat))
            assert mine in text, (seat, i, mine, text)
            shown += 1
            for other in range(states[0].num_seats):
                if other == seat:
                    continue
                # lines only another seat's view has (its hidden cards, its memory aid):
                # never on this seat's screen
                extra = set(game.render_view(states[i].view(other)).splitlines()) - own_lines
                differing += bool(extra)
                assert not extra & set(text.splitlines()), (seat, other, i, extra)
        # the seat moves (one or more moves in a row), then hands over
        while position + 1 < len(states) and seat in states[position].acting_seats:
            position += 1
        seen[seat] = position
    assert differing > 0, "the views of the seats never differed: a test that cannot fail"
    return shown


def test_memory_matrix_hot_seat_shows_each_seat_every_flip_from_its_own_view(
        tmp_path: Path) -> None:
    """Two people at one terminal: each, at its turn, sees every move since its last one with
    what it flipped (white side up), from its own view: with the memory aid on, a seat's own
    white pieces show their colour to it only — never to the other seat."""
    states, out = _play(tmp_path, "memory_matrix", {"memory_aid": True}, 5, 10,
                        lambda legal: legal[len(legal) // 2])
    assert _check_each_seat_saw_its_own_views("memory_matrix", states, out) >= 8
    flips = [st.view(0)["last_move"] for st in states[1:]]
    assert any(f and f["flipped"] for f in flips), "no flips: nothing was tested"
    assert "since your last turn" in out and re.search(r"last: \w .*flipped \d", out)


def test_algo_hot_seat_shows_each_guess_and_keeps_the_other_hand_hidden(tmp_path: Path) -> None:
    """Algo at one terminal: each seat is shown every guess since its last turn and what it
    revealed, from its own view — the other seat's hidden cards never appear."""
    states, out = _play(tmp_path, "algo", {}, 11, 10, lambda legal: legal[0])
    assert _check_each_seat_saw_its_own_views("algo", states, out) >= 6


def test_patapata_hot_seat_tells_no_answer_of_a_round_before_every_person_gave_theirs(
        tmp_path: Path) -> None:
    """Two people and a bot on one Patapata course: neither person is told anything of the
    round's other answers — the bot's or the other person's, not even that they were given —
    before giving their own; each sees the round once it is over."""
    game = get("patapata")
    options = game.validate_options({"players": 3})
    state = game.new_game(options, 5)
    a = state.legal_moves(0).texts()[0]
    b = state.legal_moves(1).texts()[0]
    res = runner.invoke(app, ["play", "patapata", "-o", "players=3", "--seat", "0", "--seat",
                              "1", "--vs", "greedy", "--seed", "5", "--save",
                              str(tmp_path / "r.json")], input=f"{a}\n\n{b}\n\n")
    assert res.exit_code == 0, res.output
    segs = _segments(res.output, 0)
    assert [s for s, _ in segs][:3] == [0, 1, 0], res.output
    # before each person's first answer: no bot answer, no other person's answer
    for seat, text in segs[:2]:
        before = text[:text.index(f"seat {seat}> ")]
        assert "(bot)" not in before and "since your last turn" not in before, before[-800:]
        assert "seat 2 (bot) has moved" not in before and "move 1:" not in before
    # the round over, seat 0 is told it: the three answers, with the round's result
    third = segs[2][1]
    assert "since your last turn" in third and "move 3: seat 1" in third, third[-1500:]
    assert "seat 2 (bot) has moved" in res.output
