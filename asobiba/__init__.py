"""asobiba (遊び場) — Japanese games on exact rules engines, with bots, a CLI and a web app."""

__version__ = "0.1.0"
