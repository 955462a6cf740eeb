"""Hand-made positions for each rule of docs/rules/memory_matrix.md (test names name the
rule). Layouts use the ``under`` notation: upper case = colour face up, lower case = white
side up over that colour, ``*`` neutral, ``.`` empty, ``-`` hole."""

from __future__ import annotations

import pytest

from asobiba.core.errors import IllegalMoveError, MalformedMoveError, OptionError
from asobiba.games import get
from asobiba.games.memory_matrix.state import MemoryMatrixState

GAME = get("memory_matrix")
EMPTY8 = ["........"] * 8


def board(*rows: str) -> list[str]:
    """Rows given from the top; the rest of an 8x8 board is empty."""
    return list(rows) + ["........"] * (8 - len(rows))


def under(state: MemoryMatrixState) -> list[str]:
    return state.under_rows()


def test_rule_seats_and_colour_cycle_two_players_two_colours() -> None:
    state = GAME.new_game({"players": 2, "colours": 2}, seed=3)
    colours = [c["letter"] for c in state.view(None)["colours"]]
    assert colours == ["B", "R", "Y", "G"]
    assert [c["seat"] for c in state.view(None)["colours"]] == [0, 1, 0, 1]
    order = []
    for _ in range(8):
        order.append((state.to_move, state.view(None)["to_move_colour"]))
        state = state.play(state.legal_moves()[0])
    assert order == [(0, "B"), (1, "R"), (0, "Y"), (1, "G")] * 2


def test_rule_score_is_sum_over_a_players_colours() -> None:
    rows = board("BBY.....", "RGG.....", "bRR.....", "........")
    state = GAME.from_layout(rows, "B", {"players": 2, "colours": 2})
    assert state.view(None)["scores"] == [2 + 1, 3 + 2]


def test_rule_equal_shares_and_neutral_remainder_three_players() -> None:
    """Seed: 各プレーヤー21ピースx3=63 plus one white piece on 64 cells."""
    state = GAME.new_game({"players": 3}, seed=0)
    view = state.view(None)
    assert [c["in_hand"] for c in view["colours"]] == [20, 20, 20]
    assert view["neutral_pieces"] == 1
    assert "".join(view["board"]).count("W") == 1
    assert state.to_json()["under"] == [r.replace("W", "*") for r in view["board"]]


def test_rule_four_players_sixteen_pieces_each() -> None:
    view = GAME.new_game({}, seed=0).view(None)
    assert [c["in_hand"] for c in view["colours"]] == [15] * 4
    assert view["neutral_pieces"] == 0


def test_rule_named_shapes_cell_counts() -> None:
    counts = {}
    for shape in ("8x8", "6x6", "10x10", "cross", "diamond", "octagon"):
        view = GAME.new_game({"shape": shape}, seed=0).view(None)
        counts[shape] = "".join(view["board"]).count(".") + 4
    assert counts == {"8x8": 64, "6x6": 36, "10x10": 100, "cross": 64, "diamond": 60,
                      "octagon": 76}


def test_rule_lines_stop_at_a_hole() -> None:
    mask = "#####/#####/##.##/#####/#####"
    opts = {"players": 2, "shape": "custom", "mask": mask, "white_any_time": False}
    # B at a3, R at b3, hole at c3, B at d3: e3... a run must not jump the hole
    state = GAME.from_layout(["R....", ".....", "BR-B.", ".....", "....."], "B", opts)
    assert "c3" not in [t[:2] for t in state.legal_moves().texts()]
    with pytest.raises(IllegalMoveError, match="not a cell"):
        state.play("c3")
    # a run ending at the hole flips nothing, so e3 is no move for the line through c3
    assert "e3" not in state.legal_moves()


def test_rule_start_layout_windmill_and_butterfly() -> None:
    wind = GAME.new_game({"layout": "windmill"}, seed=5).view(None)["board"]
    assert wind[3][3:5] == "BR" and wind[4][3:5] == "GY"
    fly = GAME.new_game({"layout": "butterfly"}, seed=5).view(None)["board"]
    assert fly[3][3:5] == "BR" and fly[4][3:5] == "YG"


def test_rule_start_layout_random_from_seed() -> None:
    layouts = {tuple(GAME.new_game({}, seed=s).view(None)["board"]) for s in range(20)}
    assert len(layouts) > 1
    again = GAME.new_game({}, seed=7).view(None)["board"]
    assert again == GAME.new_game({}, seed=7).view(None)["board"]
    for rows in layouts:
        centre = rows[3][3:5] + rows[4][3:5]
        assert sorted(centre) == ["B", "G", "R", "Y"]


def test_rule_colour_move_runs_through_whites_and_flips_every_face() -> None:
    """A run of any faces up to the nearest own piece flips: colour → white, white → the
    colour beneath it, whoever owns it."""
    rows = board("BrRy....")
    state = GAME.from_layout(rows, "B")
    after = state.play("e1")
    assert under(after)[0] == "BRrYB..."
    assert after.view(None)["board"][0] == "BRWYB..."
    last = after.view(0)["last_move"]
    assert last["flipped"] == ["b1", "c1", "d1"]
    assert last["flipped_up"] == {"b1": "R", "d1": "Y"}


def test_rule_nearest_own_piece_ends_the_run() -> None:
    rows = board("BRBR....")
    state = GAME.from_layout(rows, "B")
    after = state.play("e1")
    assert under(after)[0] == "BRBrB..."  # only d1: c1 is the nearest B


def test_rule_every_direction_flips() -> None:
    rows = board("B.B.B...", ".RRR....", "BR.RB...", ".RRR....", "B.B.B...")
    after = GAME.from_layout(rows, "B").play("c3")
    assert under(after)[:5] == ["B.B.B...", ".rrr....", "BrBrB...", ".rrr....", "B.B.B..."]
    assert len(after.view(None)["last_move"]["flipped"]) == 8


def test_rule_colour_move_that_flips_nothing_is_illegal() -> None:
    state = GAME.from_layout(board("BR......"), "B")
    with pytest.raises(IllegalMoveError, match="colour move"):
        state.play("e5")
    with pytest.raises(IllegalMoveError, match="occupied"):
        state.play("a1")


def test_rule_white_move_only_when_no_colour_move() -> None:
    opts = {"players": 4}
    state = GAME.from_layout(board("BRw....."), "B", opts)
    assert state.legal_moves().texts() == ["d1"]
    with pytest.raises(IllegalMoveError, match="white move"):
        state.play("a2w")


def test_rule_white_sandwich_flips_coloured_runs_to_white() -> None:
    """B has no colour move; a white B piece sandwiches R Y up to the nearest white."""
    rows = board("rRYB....")
    state = GAME.from_layout(rows, "G")  # green: nothing face up, so white rules apply
    texts = state.legal_moves().texts()
    assert texts == ["e1w"]
    after = state.play("e1w")
    assert under(after)[0] == "rrybg..."
    assert after.view(None)["board"][0] == "WWWWW..."


def test_rule_white_anywhere_when_no_sandwich_at_all() -> None:
    rows = board("RB......")
    state = GAME.from_layout(rows, "Y")  # yellow has nothing face up, and no white exists
    texts = state.legal_moves().texts()
    assert len(texts) == 62 and all(t.endswith("w") for t in texts)
    after = state.play("h8w")
    assert under(after)[7] == ".......y"
    assert after.view(None)["last_move"]["flipped"] == []


def test_rule_white_any_time_default_for_two_players_one_colour() -> None:
    rows = board("BRw.....")
    two = GAME.from_layout(rows, "B", {"players": 2})
    assert "d1" in two.legal_moves() and "c2w" not in two.legal_moves()
    rows = board("BRw.....", "..R.....")
    two = GAME.from_layout(rows, "B", {"players": 2})
    assert "d1" in two.legal_moves() and "c3w" in two.legal_moves()
    assert "c3" not in two.legal_moves()
    off = GAME.from_layout(rows, "B", {"players": 2, "white_any_time": False})
    assert off.legal_moves().texts() == ["d1"]
    four = GAME.from_layout(rows, "B", {"players": 4, "white_any_time": True})
    assert "c3w" in four.legal_moves()
    assert under(two.play("c3w"))[:3] == ["BR*.....", "..r.....", "..b....."]


def test_rule_lost_colour_children_play_white() -> None:
    rows = board("BRbb....", "........", "Y.......")
    state = GAME.from_layout(rows, "G")
    assert all(t.endswith("w") for t in state.legal_moves().texts())


def test_rule_lost_colour_adults_pass() -> None:
    opts = {"players": 2, "colours": 2, "lost_colour": "pass"}
    rows = board("BRy.....", "G.......")
    state = GAME.from_layout(rows, "Y", opts)
    assert state.legal_moves().texts() == ["pass"]
    with pytest.raises(IllegalMoveError, match="adults"):
        state.play("d1w")
    after = state.play("pass")
    assert after.view(None)["to_move_colour"] == "G"
    assert after.view(None)["last_move"]["pass"] is True
    # a colour with a piece face up may not pass
    with pytest.raises(IllegalMoveError, match="must move"):
        after.play("pass")
    kids = GAME.from_layout(rows, "Y", {"players": 2, "colours": 2})
    with pytest.raises(IllegalMoveError, match="no passing"):
        kids.play("pass")


def test_rule_lost_colour_revives_when_flipped_back() -> None:
    """「失った色を裏返して復活させることは可能」: a white Y flipped by another colour
    shows yellow again."""
    after = GAME.from_layout(board("BY......", "R......."), "B").play("c1")
    assert after.view(None)["colours"][2]["showing"] == 0
    state = GAME.from_layout(board("R.yR...."), "R", {"players": 2, "colours": 2})
    assert "b1" in state.legal_moves()
    revived = state.play("b1")
    assert under(revived)[0] == "RRYR...."
    assert revived.view(None)["colours"][2]["showing"] == 1


def test_rule_neutral_pieces_flip_but_stay_white_and_count_for_nobody() -> None:
    rows = board("B*R*....")
    state = GAME.from_layout(rows, "B")
    after = state.play("e1")
    assert under(after)[0] == "B*r*B..."
    assert after.view(None)["scores"] == [2, 0, 0, 0]
    assert after.view(None)["last_move"]["flipped"] == ["b1", "c1", "d1"]
    # a neutral piece closes a white sandwich like any white piece
    wrows = board("*RY.....")
    white = GAME.from_layout(wrows, "G")
    assert under(white.play("d1w"))[0] == "*ryg...."


def test_rule_end_when_every_cell_is_occupied_ties_shared() -> None:
    mask = "###/###/###"
    opts = {"players": 2, "shape": "custom", "mask": mask}
    state = GAME.from_layout(["RBB", "BBB", "BB."], "R", opts, hand=[0, 1])
    assert state.legal_moves().texts() == ["c3"]
    end = state.play("c3")
    assert end.is_over and end.outcome is not None
    assert under(end) == ["RBB", "BbB", "BBR"]
    assert end.outcome.scores == (6, 2) and end.outcome.ranks == (1, 2)
    full = GAME.from_layout(["BRB", "RBR", "BRr"], "B", opts, hand=[0, 0])
    assert full.is_over and full.outcome is not None
    assert full.outcome.scores == (4, 4) and full.outcome.ranks == (1, 1)
    assert full.outcome.reason == "the board is full"


def test_rule_adults_game_ends_when_no_colour_left_can_move() -> None:
    opts = {"players": 2, "colours": 2, "lost_colour": "pass", "shape": "6x6"}
    rows = ["Ry....", "g.....", "......", "......", "......", "......"]
    state = GAME.from_layout(rows, "B", opts, hand=[0, 0, 3, 3])
    assert state.is_over
    assert "no colour left" in state.outcome.reason  # type: ignore[union-attr]


def test_notation_errors_are_typed_and_change_nothing() -> None:
    state = GAME.new_game({}, seed=1)
    before = state.to_json()
    with pytest.raises(MalformedMoveError):
        state.play("zz")
    with pytest.raises(MalformedMoveError):
        state.play("d3x")
    with pytest.raises(IllegalMoveError, match="not a cell"):
        state.play("k9")
    with pytest.raises(IllegalMoveError):
        state.play("a1")
    assert state.to_json() == before


@pytest.mark.parametrize("options, name", [
    ({"players": 9}, "players"),
    ({"colours": 3}, "colours"),
    ({"shape": "custom"}, "mask"),
    ({"shape": "custom", "mask": "###/#x#/###"}, "mask"),
    ({"shape": "custom", "mask": "###/##/###"}, "mask"),
    ({"mask": "###/###/###"}, "mask"),
    ({"players": 5, "shape": "custom", "mask": "###/###/###"}, "players"),
    ({"layout": "spiral"}, "layout"),
])
def test_bad_options_name_the_option(options: dict, name: str) -> None:
    with pytest.raises(OptionError) as err:
        GAME.new_game(options)
    assert err.value.option == name
