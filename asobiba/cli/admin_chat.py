"""``asobiba admin`` — chat moderation for operators (docs/fair-play.md "Chat").

    asobiba admin reports [--all] [--json]
    asobiba admin resolve 12 --by alice --reason "rude, line removed" [--remove-line]
    asobiba admin mute NAME --hours 24 --by alice --reason "insults"
    asobiba admin unmute NAME --by alice --reason "appeal accepted"
    asobiba admin ban NAME --by alice --reason "threats"
    asobiba admin unban NAME --by alice --reason "appeal accepted"
    asobiba admin audit [NAME] [--json]

Every action is written to the audit table (``web_moderation``: who, when, why) and holds at
once on every web process: mutes and bans are read from the database on each line sent.
``--by`` defaults to the operating system's user name.
"""

from __future__ import annotations

import getpass
import json
from typing import Annotated

import typer

DataDir = Annotated[str, typer.Option(help="the server's data directory (SQLite)")]
Db = Annotated[str | None, typer.Option(help="SQLAlchemy URL instead of --data-dir")]
By = Annotated[str | None, typer.Option(help="who acts (default: your user name)")]
Reason = Annotated[str, typer.Option(help="why (kept in the audit)")]


def _engine(data_dir: str, db: str | None):  # type: ignore[no-untyped-def]
    from .admin_tournament import _store

    return _store(data_dir, db)


def _by(by: str | None) -> str:
    return by or getpass.getuser()


def _act(action: str, name: str, by: str | None, reason: str, hours: float | None,
         data_dir: str, db: str | None) -> None:
    from ..server import chat
    from ..server.rooms import ClientError

    try:
        done = chat.moderate(_engine(data_dir, db), action, name, _by(by), reason, hours)
    except ClientError as exc:
        typer.echo(f"refused ({exc.code}): {exc.message}", err=True)
        raise typer.Exit(2) from None
    until = f" until {done['until']}" if done["until"] else ""
    typer.echo(f"{action}: {name}{until}")


def register(app: typer.Typer) -> None:
    """Add the chat moderation commands to ``asobiba admin``."""

    @app.command("reports")
    def reports_(all_: Annotated[bool, typer.Option("--all", help="resolved ones too")] = False,
                 as_json: Annotated[bool, typer.Option("--json")] = False,
                 data_dir: DataDir = "data", db: Db = None) -> None:
        """The open reports of chat lines and players (the operator's queue)."""
        from ..server import chat

        rows = chat.reports(_engine(data_dir, db), "all" if all_ else "open")
        if as_json:
            typer.echo(json.dumps({"reports": rows}, ensure_ascii=False))
            return
        if not rows:
            typer.echo("no open reports")
        for r in rows:
            what = f"line {r['line']} in {r['place']}: {r['text']!r}" if r["line"] else "player"
            typer.echo(f"#{r['id']} [{r['status']}] {r['created']} {r['reporter']} reports "
                       f"{r['target']} ({r['reason']}): {what}")

    @app.command("resolve")
    def resolve_(report: int, reason: Reason, by: By = None,
                 remove_line: Annotated[bool, typer.Option(help="hide the line")] = False,
                 data_dir: DataDir = "data", db: Db = None) -> None:
        """Close a report (audited); ``--remove-line`` hides the reported line."""
        from ..server import chat
        from ..server.rooms import ClientError

        try:
            chat.resolve(_engine(data_dir, db), report, _by(by), reason, remove_line)
        except ClientError as exc:
            typer.echo(f"refused ({exc.code}): {exc.message}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"resolved #{report}")

    @app.command("mute")
    def mute(name: str, reason: Reason,
             hours: Annotated[float, typer.Option(min=0.01, max=24 * 365)] = 24.0,
             by: By = None, data_dir: DataDir = "data", db: Db = None) -> None:
        """Mute a player's chat for some hours."""
        _act("mute", name, by, reason, hours, data_dir, db)

    @app.command("unmute")
    def unmute(name: str, reason: Reason, by: By = None, data_dir: DataDir = "data",
               db: Db = None) -> None:
        """End a mute."""
        _act("unmute", name, by, reason, None, data_dir, db)

    @app.command("ban")
    def ban(name: str, reason: Reason, by: By = None, data_dir: DataDir = "data",
            db: Db = None) -> None:
        """Ban a player from chat (until unbanned)."""
        _act("ban", name, by, reason, None, data_dir, db)

    @app.command("unban")
    def unban(name: str, reason: Reason, by: By = None, data_dir: DataDir = "data",
              db: Db = None) -> None:
        """Lift a ban."""
        _act("unban", name, by, reason, None, data_dir, db)

    @app.command("audit")
    def audit_(name: Annotated[str | None, typer.Argument()] = None,
               as_json: Annotated[bool, typer.Option("--json")] = False,
               data_dir: DataDir = "data", db: Db = None) -> None:
        """Every moderation action (of one player), oldest first: who, when, why."""
        from ..server import chat

        rows = chat.audit(_engine(data_dir, db), name)
        if as_json:
            typer.echo(json.dumps({"actions": rows}, ensure_ascii=False))
            return
        for r in rows:
            until = f" until {r['until']}" if r["until"] else ""
            typer.echo(f"{r['at']} {r['by']}: {r['action']} {r['player']}{until} — "
                       f"{r['reason']}")
