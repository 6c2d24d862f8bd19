"""Flask CLI commands on the log: demo, rebuild, export-log, import-log."""
from __future__ import annotations

import contextlib
import sys
import time
from typing import Callable, Iterator

import click
from flask.cli import with_appcontext
from flask import Flask, current_app

from tracker import backup
from tracker.cli_recap import recap_command
from tracker.db import open_db
from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker.store import EventStore


def _db():
    return open_db(current_app.config["DATABASE"])


def _key() -> bytes:
    return backup.signing_key(current_app.config["SECRET_KEY"])


def progress(label: str, total: int) -> contextlib.AbstractContextManager[Callable[[int], None]]:
    """A progress bar with the rate and the time left, on the terminal's stderr (stdout may be
    the exported log); nothing when stderr is no terminal: the command's last line says it all."""
    if not sys.stderr.isatty():
        return contextlib.nullcontext(lambda _steps: None)
    return _bar(label, total)


@contextlib.contextmanager
def _bar(label: str, total: int) -> Iterator[Callable[[int], None]]:
    started, done = time.perf_counter(), 0
    with click.progressbar(length=max(total, 1), label=label, show_eta=True, show_pos=True, file=sys.stderr,
                           item_show_func=lambda rate: rate, width=24) as bar:
        def advance(steps: int) -> None:
            nonlocal done
            done += steps
            elapsed = time.perf_counter() - started
            bar.update(steps, f"{done / elapsed:,.0f}/s" if elapsed > 0 else None)

        yield advance


def _rate(count: int, started: float) -> str:
    elapsed = time.perf_counter() - started
    return f"in {elapsed:.1f} s ({count / elapsed:,.0f} events/s)" if elapsed > 0 else ""


@click.command("rebuild")
@with_appcontext
def rebuild_command() -> None:
    """Drop every read model and rebuild it from the event log alone."""
    db = _db()
    store = EventStore(db)
    started = time.perf_counter()
    with progress("Rebuilding", store.last_position()) as advance:
        count = rebuild(db, store, advance)
    click.echo(f"Rebuilt the read models from {count} events {_rate(count, started)}.")


@click.command("export-log")
@with_appcontext
@click.argument("file", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
def export_log_command(file: str) -> None:
    """Write the whole event log as JSON Lines, one event per line, in log order, signed."""
    db = _db()
    out = sys.stdout if file == "-" else open(file, "w", encoding="utf-8", newline="\n")
    started = time.perf_counter()
    try:
        count = backup.export_lines(db, out, key=_key(), progress=progress)
    finally:
        if out is not sys.stdout:
            out.close()
    if file != "-":
        click.echo(f"Exported {count} events to {file} {_rate(count, started)}.")


@click.command("import-log")
@with_appcontext
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--accept-unsigned", is_flag=True,
              help="import a file this install did not sign (exported elsewhere, or before signatures)")
def import_log_command(file: str, accept_unsigned: bool) -> None:
    """Import a JSON Lines log into an empty database (checks the whole file first)."""
    db = _db()
    started = time.perf_counter()
    with open(file, "rb") as f:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))  # for the bar
        f.seek(0)
        try:
            check = backup.import_lines(db, backup.TextLines(f), key=_key(), accept_unsigned=accept_unsigned,
                                        progress=progress, lines=lines)
        except backup.BadLog as bad:
            raise click.ClickException(str(bad)) from None
    signed = "signed by this install" if check.signed else "not signed by this install"
    click.echo(f"Imported {check.events} events ({signed}) and rebuilt the read models {_rate(check.events, started)}.")


@click.command("demo")
@with_appcontext
@click.option("--if-empty", is_flag=True, help="only when the database holds no events yet")
def demo_command(if_empty: bool) -> None:
    """Seed a demo campaign with characters for each ruleset and a play session."""
    from tracker import demo

    db = _db()
    if if_empty and EventStore(db).last_position():
        click.echo("The database already holds events: no demo added.")
        return
    campaign_id = demo.seed(db)
    click.echo(f"Demo campaign created: /campaigns/{campaign_id}")


@click.command("create-gm")
@with_appcontext
@click.argument("username")
@click.password_option(help="at least 10 characters (asked for when not given)")
def create_gm_command(username: str, password: str) -> None:
    """Create a GM account (the web's first start does the same)."""
    from tracker import bootstrap
    from tracker.errors import Rejected

    try:
        bootstrap.service(_db()).handle({"type": "RegisterGM", "username": username, "password": password})
    except Rejected as no:
        raise click.ClickException(no.message) from None
    click.echo(f"GM account {username!r} created.")


@click.command("setup-code")
@with_appcontext
@click.option("--url", default="", help="the address Touché is served on, to print the whole link")
def setup_code_command(url: str) -> None:
    """Print the one-time code that creates the first GM on /setup (none once a GM exists)."""
    from tracker import setup_code

    if queries.has_gm(_db()):
        setup_code.discard(current_app)
        click.echo("Touché already has a GM account: no set-up code is needed.")
        return
    code, _ = setup_code.issue(current_app)
    setup_code.announce(code, url)


@click.command("issue-token")
@with_appcontext
@click.argument("username")
@click.argument("label", default="")
def issue_token_command(username: str, label: str) -> None:
    """Make an API token for a GM and print it once (a script's first token, without a browser)."""
    from dataclasses import replace

    from tracker import bootstrap
    from tracker.errors import Rejected
    from tracker.services import Context

    db = _db()
    row = db.execute("SELECT id FROM gms WHERE username = ?", [username]).fetchone()
    if row is None:
        raise click.ClickException(f"no GM has the username {username!r}")
    context = replace(current_app.config.get("SERVICE_CONTEXT") or Context(), actor=row[0])
    try:
        token = bootstrap.service(db, context).handle({"type": "IssueApiToken", "label": label}).secret
    except Rejected as no:
        raise click.ClickException(no.message) from None
    click.echo(token)


def init_app(app: Flask) -> None:
    for command in (rebuild_command, export_log_command, import_log_command, demo_command, create_gm_command,
                    setup_code_command, issue_token_command):
        app.cli.add_command(command)
    app.cli.add_command(recap_command)
