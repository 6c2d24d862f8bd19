"""Flask CLI commands on the log: demo, rebuild, export-log, import-log.

Each speaks the command line's language (``tracker.cli.language``): its help, its progress, its
last line and its refusals."""
from __future__ import annotations

import contextlib
import sys
import time
from typing import Callable, Iterator

import click
from flask.cli import with_appcontext
from flask import Flask, current_app

from tracker import backup
from tracker.cli import language as cli_language
from tracker.cli.language import gettext, in_cli_language
from tracker.cli.recap import recap_command
from tracker.bootstrap.db import open_db
from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker.rules.text import t, tn
from tracker.backup.sealed_fields import Sealer
from tracker.eventstore.store import EventStore


def _db():
    return open_db(current_app.config["DATABASE"])


def _key() -> bytes:
    return backup.signing_key(current_app.config["SECRET_KEY"])


def _sealer() -> Sealer:
    return Sealer(current_app.config["SECRET_KEY"])


def progress(label: object, total: int) -> contextlib.AbstractContextManager[Callable[[int], None]]:
    """A progress bar with the rate and the time left, on the terminal's stderr (stdout may be
    the exported log); nothing when stderr is no terminal: the command's last line says it all."""
    if not sys.stderr.isatty():
        return contextlib.nullcontext(lambda _steps: None)
    return _bar(label, total)


@contextlib.contextmanager
def _bar(label: object, total: int) -> Iterator[Callable[[int], None]]:
    started, done = time.perf_counter(), 0
    with click.progressbar(length=max(total, 1), label=str(label), show_eta=True, show_pos=True, file=sys.stderr,
                           item_show_func=lambda rate: rate, width=24) as bar:
        def advance(steps: int) -> None:
            nonlocal done
            done += steps
            elapsed = time.perf_counter() - started
            bar.update(steps, str(t("{rate}/s", rate=_number(done / elapsed))) if elapsed > 0 else None)

        yield advance


def _number(value: float, digits: int = 0) -> str:
    """A number as the command line's readers write it (``1,234.5`` / ``1.234,5``)."""
    from flask_babel import format_decimal

    return format_decimal(round(value, digits), format="#,##0" + ("." + "0" * digits if digits else ""))


def _rate(count: int, started: float) -> str:
    elapsed = time.perf_counter() - started
    if elapsed <= 0:
        return ""
    return str(t("in {seconds} s ({rate} events/s)", seconds=_number(elapsed, 1), rate=_number(count / elapsed)))


@click.command("rebuild", help=gettext("Drop every read model and rebuild it from the event log alone."))
@with_appcontext
@in_cli_language
def rebuild_command() -> None:
    """Drop every read model and rebuild it from the event log alone."""
    db = _db()
    store = EventStore(db)
    started = time.perf_counter()
    with progress(t("Rebuilding"), store.last_position()) as advance:
        count = rebuild(db, store, advance)
    click.echo(tn("Rebuilt the read models from {count} event {rate}.",
                  "Rebuilt the read models from {count} events {rate}.", count, rate=_rate(count, started)))


@click.command("export-log", help=gettext("Write the whole event log as JSON Lines, one event per line, in log order, "
                                          "signed."))
@with_appcontext
@click.argument("file", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
@in_cli_language
def export_log_command(file: str) -> None:
    """Write the whole event log as JSON Lines, one event per line, in log order, signed."""
    db = _db()
    out = sys.stdout if file == "-" else open(file, "w", encoding="utf-8", newline="\n")
    started = time.perf_counter()
    try:
        count = backup.export_lines(db, out, key=_key(), progress=progress, sealer=_sealer())
    finally:
        if out is not sys.stdout:
            out.close()
    if file != "-":
        click.echo(tn("Exported {count} event to {file} {rate}.", "Exported {count} events to {file} {rate}.", count,
                      file=file, rate=_rate(count, started)))


@click.command("import-log", help=gettext("Import a JSON Lines log into an empty database (checks the whole file "
                                          "first)."))
@with_appcontext
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--accept-unsigned", is_flag=True,
              help=gettext("import a file this install did not sign (exported elsewhere, or before signatures)"))
@in_cli_language
def import_log_command(file: str, accept_unsigned: bool) -> None:
    """Import a JSON Lines log into an empty database (checks the whole file first)."""
    db = _db()
    started = time.perf_counter()
    with open(file, "rb") as f:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))  # for the bar
        f.seek(0)
        try:
            check = backup.import_lines(db, backup.TextLines(f), key=_key(), accept_unsigned=accept_unsigned,
                                        progress=progress, lines=lines, sealer=_sealer())
        except backup.BadLog as bad:
            raise click.ClickException(str(bad)) from None  # read here, in the command line's language
    rate = _rate(check.events, started)
    if check.signed:
        said = tn("Imported {count} event (signed by this install) and rebuilt the read models {rate}.",
                  "Imported {count} events (signed by this install) and rebuilt the read models {rate}.",
                  check.events, rate=rate)
    else:
        said = tn("Imported {count} event (not signed by this install) and rebuilt the read models {rate}.",
                  "Imported {count} events (not signed by this install) and rebuilt the read models {rate}.",
                  check.events, rate=rate)
    click.echo(said)


@click.command("demo", help=gettext("Seed a demo campaign with characters for each ruleset and a play session."))
@with_appcontext
@click.option("--if-empty", is_flag=True, help=gettext("only when the database holds no events yet"))
@in_cli_language
def demo_command(if_empty: bool) -> None:
    """Seed a demo campaign with characters for each ruleset and a play session."""
    from tracker.cli import demo

    db = _db()
    if if_empty and EventStore(db).last_position():
        click.echo(t("The database already holds events: no demo added."))
        return
    address = "/campaigns/" + demo.seed(db, language=cli_language.language())
    click.echo(t("Demo campaign created: {address}", address=address))


@click.command("create-gm", help=gettext("Create a GM account (the web's first start does the same)."))
@with_appcontext
@click.argument("username")
@click.password_option(help=gettext("at least 10 characters (asked for when not given)"))
@in_cli_language
def create_gm_command(username: str, password: str) -> None:
    """Create a GM account (the web's first start does the same)."""
    from tracker import bootstrap
    from tracker.domain.errors import Rejected

    try:
        bootstrap.service(_db()).handle({"type": "RegisterGM", "username": username, "password": password})
    except Rejected as no:
        raise click.ClickException(str(no.message)) from None
    click.echo(t("GM account {username} created.", username=repr(username)))


@click.command("setup-code", help=gettext("Print the one-time code that creates the first GM on /setup (none once a "
                                          "GM exists)."))
@with_appcontext
@click.option("--url", default="", help=gettext("the address Touché is served on, to print the whole link"))
@in_cli_language
def setup_code_command(url: str) -> None:
    """Print the one-time code that creates the first GM on /setup (none once a GM exists)."""
    from tracker.application import setup_code

    if queries.has_gm(_db()):
        setup_code.discard(current_app)
        click.echo(t("Touché already has a GM account: no set-up code is needed."))
        return
    code, _ = setup_code.issue(current_app)
    setup_code.announce(code, url)


@click.command("issue-token", help=gettext("Make an API token for a GM and print it once (a script's first token, "
                                           "without a browser)."))
@with_appcontext
@click.argument("username")
@click.argument("label", default="")
@click.option("--read-only", is_flag=True, help=gettext("the token reads, and sends no command"))
@click.option("--campaign", "campaign_id", default="", help=gettext("the one campaign (its id) the token reaches"))
@in_cli_language
def issue_token_command(username: str, label: str, read_only: bool, campaign_id: str) -> None:
    """Make an API token for a GM and print it once (a script's first token, without a browser)."""
    from dataclasses import replace

    from tracker import bootstrap
    from tracker.domain.errors import NotFound, Rejected
    from tracker.application.services import Context

    db = _db()
    row = db.execute("SELECT id FROM gms WHERE username = ?", [username]).fetchone()
    if row is None:
        raise click.ClickException(str(t("no GM has the username {username}", username=repr(username))))
    context = replace(current_app.config.get("SERVICE_CONTEXT") or Context(), actor=row[0])
    try:
        token = bootstrap.service(db, context).handle({"type": "IssueApiToken", "label": label, "read_only": read_only,
                                                       "campaign_id": campaign_id}).secret
    except Rejected as no:
        raise click.ClickException(str(no.message)) from None
    except NotFound as no:
        raise click.ClickException(str(no)) from None
    click.echo(token)


@click.command("import-character", help=gettext("Bring a character into a campaign from a Foundry VTT actor or a "
                                                "Pathbuilder 2e JSON export (a newer export updates it)."))
@with_appcontext
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--campaign", "campaign_id", required=True, help=gettext("the campaign (its id) the character joins"))
@click.option("--source", default="", help=gettext("the export's format (foundry, pathbuilder); found from the file "
                                                   "when not given"))
@click.option("--rank", default="", help=gettext("the character's rank (pj, villano, elite, campeon, minor); the "
                                                 "export's when not given"))
@in_cli_language
def import_character_command(file: str, campaign_id: str, source: str, rank: str) -> None:
    """Bring a character into a campaign from a Foundry VTT actor or a Pathbuilder 2e JSON export."""
    from tracker import bootstrap
    from tracker.domain.errors import NotFound, Rejected

    with click.open_file(file, "rb") as f:
        text = f.read().decode("utf-8-sig", errors="replace")
    try:
        outcome = bootstrap.service(_db()).handle({"type": "ImportCharacter", "campaign_id": campaign_id,
                                                   "source": source, "rank": rank, "json": text})
    except Rejected as no:
        raise click.ClickException(str(no.message)) from None
    except NotFound as no:
        raise click.ClickException(str(no)) from None
    sheet = outcome.events[0]
    said = t("Imported {name} into the campaign: /characters/{id}", name=sheet.event.name, id=outcome.key) \
        if sheet.type == "CharacterCreated" else \
        t("Updated {name} from the export: /characters/{id}", name=sheet.event.name, id=outcome.key)
    click.echo(said)


def init_app(app: Flask) -> None:
    for command in (rebuild_command, export_log_command, import_log_command, demo_command, create_gm_command,
                    setup_code_command, issue_token_command, import_character_command):
        app.cli.add_command(command)
    app.cli.add_command(recap_command)
