"""The opening explorer (docs/explorer.md): per two-player perfect-information game, the
moves played from a position in the stored finished games (:mod:`.index`) beside a bundled
engine book (:mod:`.book`), positions keyed up to the board's symmetries (:mod:`.positions`).
Nothing here imports the web."""
