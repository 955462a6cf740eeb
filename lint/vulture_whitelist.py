"""Names vulture (tests/core/test_dead_code.py) cannot see used: entry points and
names that frameworks call. Never executed; each group says who uses its names.
Regenerate candidates with `vulture asobiba tests bench --min-confidence 60 --make-whitelist`."""
# ruff: noqa

# Typer commands, registered by decorator and called by the CLI
_._add_completion  # unused attribute (asobiba/cli/main.py:113)
arena  # unused function (asobiba/cli/main.py:347)
print_  # unused function (asobiba/cli/main.py:556)
infer_cmd  # unused function (asobiba/games/algo/cli.py:37)
puzzle_cmd  # unused function (asobiba/games/algo/cli.py:70)
export_cmd  # unused function (asobiba/games/reverstargo/cli.py:25)
import_cmd  # unused function (asobiba/games/reverstargo/cli.py:43)
daily_cmd  # unused function (asobiba/progression/cli.py:64)
calibrate  # unused function (asobiba/progression/cli.py:139)
build_cmd  # unused function (asobiba/cli/puzzles_cmd.py)
verify_cmd  # unused function (asobiba/cli/puzzles_cmd.py)
sets_cmd  # unused function (asobiba/cli/puzzles_cmd.py)

# Answer-model fields (api_schema): the OpenAPI document and the answer checks read them
outgoing  # ChallengeNotices.outgoing
correspondence  # Turn.correspondence

# Names used only inside string annotations (typing.cast("…", …))
CursorResult  # asobiba/progression/puzzle_trainer.py

# Protocol and dunder methods called by Python or a type's users (comparisons, module
# __getattr__, Protocol call/parameter names, asyncio's future protocol)
question  # unused variable (asobiba/core/hooks.py:91)
__gt__  # unused function (asobiba/core/protocol.py:72)
__getattr__  # unused function (asobiba/progression/__init__.py:41)
__call__  # unused function (asobiba/server/db.py:536)
_._asyncio_future_blocking  # unused attribute (asobiba/server/eager.py:51)

# Hooks called by Gymnasium, PettingZoo, OpenSpiel and sb3-contrib (never by asobiba itself)
close_extras  # gymnasium.vector.VectorEnv.close calls it (asobiba/envs/vector.py)
_.observation_space  # unused method (asobiba/envs/aec.py:68)
planes  # unused function (asobiba/envs/codec.py:181)
_.set_from  # unused method (asobiba/envs/openspiel.py:320)
_.string_from  # unused method (asobiba/envs/openspiel.py:327)
_._legal_actions  # unused method (asobiba/envs/openspiel.py:418)
_._apply_action  # unused method (asobiba/envs/openspiel.py:426)
_._action_to_string  # unused method (asobiba/envs/openspiel.py:429)
_.observation_space  # unused attribute (asobiba/envs/single.py:59)
_.action_masks  # unused method (asobiba/envs/single.py:119)

# Optional search hooks: Protocols a game's adapter may implement (looked up when a
# searcher is built)
Decides  # unused class (asobiba/search/adapter.py:50)
Orders  # unused class (asobiba/search/adapter.py:57)
Expands  # unused class (asobiba/search/adapter.py:66)
Passes  # unused class (asobiba/search/adapter.py:73)
LearnsCutoffs  # unused class (asobiba/search/adapter.py:80)
HasPlayer  # unused class (asobiba/search/adapter.py:86)
RollsOut  # unused class (asobiba/search/adapter.py:109)
EstimatesRollout  # unused class (asobiba/search/adapter.py:115)

# fontTools options and table fields, read by fontTools
_.layout_features  # unused attribute (asobiba/paper/fontbuild.py:70)
_.hinting  # unused attribute (asobiba/paper/fontbuild.py:71)
_.desubroutinize  # unused attribute (asobiba/paper/fontbuild.py:72)
_.notdef_outline  # unused attribute (asobiba/paper/fontbuild.py:73)
_.name_IDs  # unused attribute (asobiba/paper/fontbuild.py:74)
_.glyphOrder  # unused attribute (asobiba/paper/fontbuild.py:83)
_.tableVersion  # unused attribute (asobiba/paper/fontbuild.py:96)
_.maxZones  # unused attribute (asobiba/paper/fontbuild.py:102)
_.numGlyphs  # unused attribute (asobiba/paper/fontbuild.py:103)
_.glyphDataFormat  # unused attribute (asobiba/paper/fontbuild.py:104)
_.formatType  # unused attribute (asobiba/paper/fontbuild.py:106)
_.sfntVersion  # unused attribute (asobiba/paper/fontbuild.py:107)
_.string  # unused attribute (asobiba/paper/fontbuild.py:110)
_.string  # unused attribute (asobiba/paper/fontbuild.py:112)
_.string  # unused attribute (asobiba/paper/fontbuild.py:114)
_.recalcBBoxes  # unused attribute (asobiba/paper/fontbuild.py:115)

# Pydantic model fields and config, read by pydantic and the OpenAPI schema
default_bot  # the game list answer: the lobby card's suggested CPU level (js/lobby.js)
model_config  # unused variable (asobiba/server/api_schema.py:45)
model_config  # unused variable (asobiba/server/api_schema.py:52)
initial  # unused variable (asobiba/server/api_schema.py:65)
increment  # unused variable (asobiba/server/api_schema.py:66)
byoyomi  # unused variable (asobiba/server/api_schema.py:70)
model_config  # unused variable (asobiba/server/api_schema.py:75)
_._match_in_words  # unused method (asobiba/server/api_schema.py:116)
model_config  # unused variable (asobiba/server/api_schema.py:249)
model_config  # unused variable (asobiba/server/api_schema.py:271)
paired  # unused variable (asobiba/server/api_schema.py:418)
recorded  # unused variable (asobiba/server/api_schema.py:506)
# the settings page's fields (api_schema.Settings) and the review's partial answer, read by
# pydantic, the OpenAPI schema and the browser
coords
sound
tone
notify
confirm
anim
analysed_plies

# Alembic migration module attributes and hooks, read by alembic
revision  # unused variable (asobiba/server/migrations/versions/0001_baseline.py:26)
down_revision  # unused variable (asobiba/server/migrations/versions/0001_baseline.py:27)
branch_labels  # unused variable (asobiba/server/migrations/versions/0001_baseline.py:28)
depends_on  # unused variable (asobiba/server/migrations/versions/0001_baseline.py:29)
downgrade  # unused function (asobiba/server/migrations/versions/0001_baseline.py:229)

# Stored or descriptive fields: SQLAlchemy columns, a tutorial's check as written
_.cleared_at  # unused attribute (asobiba/progression/daily.py:272)
cleared_at  # unused variable (asobiba/tables.py:213)
check_text  # unused variable (asobiba/progression/tutorials.py:85)

# Write-only state: counters/flags nothing reads yet (no metrics endpoint exposes them); left
# because their modules are being changed by others (Redis faults, Algo) — candidates to
# expose or remove
_.overrode  # unused attribute (asobiba/games/algo/search.py:228)
_.overrode  # unused attribute (asobiba/games/algo/search.py:285)
_.overrode  # unused attribute (asobiba/games/algo/search.py:288)
_.dropped  # unused attribute (asobiba/server/bus.py:89)
_.dropped  # unused attribute (asobiba/server/bus.py:145)
_.reclaimed  # unused attribute (asobiba/server/jobs.py:182)
_.reclaimed  # unused attribute (asobiba/server/jobs.py:234)

# Named values that document the numbering of a tuple or square, and solver3's
# relative_children (the reference its docstring says the forward pass inlines)
BISHOP  # unused variable (asobiba/games/flipflop/board.py:15)
ROOK  # unused variable (asobiba/games/flipflop/board.py:15)
HOME  # unused variable (asobiba/games/flipflop/solver3.py:29)
relative_children  # unused function (asobiba/games/flipflop/solver3.py:84)
CIRCLE  # unused variable (asobiba/games/patapata/tasks.py:22)
SQUARE  # unused variable (asobiba/games/patapata/tasks.py:22)

# Named by each game's MANIFEST as "module:attribute" strings (core/manifest.py imports them
# on first use): a game's progression hooks, paper, formats and codec
PROGRESSION  # unused variable (asobiba/games/<id>/progression.py)
PAPER  # unused variable (asobiba/games/<id>/paper.py)
FORMATS  # unused variable (asobiba/games/<id>/formats.py)
last_move  # a key of FlipFlopView (asobiba/games/flipflop/views.py), read by the JS renderer asobiba/web/games/flipflop.js

# Keys of the typed views (asobiba/games/<id>/views.py, issue 26 item 2): declared for the
# wire shape the JS renderers read (their JSDoc typedefs are generated from these), not
# read by Python
my_setup  # a key of AlgoView (asobiba/games/algo/views.py)
name_ja  # a key of Memory Matrix's colour view (asobiba/games/memory_matrix/views.py)
in_hand  # a key of MemoryMatrixView
to_move_colour  # a key of MemoryMatrixView
neutral_pieces  # a key of MemoryMatrixView
lost_colour  # a key of MemoryMatrixView
memory_aid  # a key of MemoryMatrixView
O  # a key of Patapata's MarkCounts (asobiba/games/patapata/views.py)
X  # a key of Patapata's MarkCounts
finished_task  # a key of Patapata's sheet view
window_marks  # a key of Patapata's sheet view

# Typer commands of `asobiba admin` (asobiba/cli/admin_chat.py): registered by decorator
reports_  # unused function (asobiba/cli/admin_chat.py)
resolve_  # unused function (asobiba/cli/admin_chat.py)
unmute  # unused function (asobiba/cli/admin_chat.py)
unban  # unused function (asobiba/cli/admin_chat.py)
audit_  # unused function (asobiba/cli/admin_chat.py)

# Fields of the chat's typed messages and answers (api_schema.py, ws_protocol.py): the wire
# shape the page reads (js/chat.js), and the report reasons the API model documents
can_write  # a field of the chat answer (asobiba/server/api_schema.py)
players_chat  # a field of ChatLines (asobiba/server/ws_protocol.py)
spectators_hidden  # a field of ChatLines (asobiba/server/ws_protocol.py)
REPORT_REASONS  # the report reasons (asobiba/server/chat.py), listed beside the model's Literal
