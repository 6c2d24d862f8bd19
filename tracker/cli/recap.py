"""The ``recap`` command: a session's recap on standard output (or in a file), in the campaign's
language unless ``--lang`` asks for another."""
from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from tracker import recap
from tracker.cli.language import gettext, in_cli_language
from tracker.bootstrap.db import open_db
from tracker.i18n import LANGUAGES
from tracker.rules.text import t
from tracker.application.services import NotFound


@click.command("recap", help=gettext("Write the recap of play session SESSION (its id) as Markdown, HTML or JSON."))
@with_appcontext
@click.argument("session")
@click.option("--format", "fmt", type=click.Choice(list(recap.FORMATS)), default="md", show_default=True)
@click.option("--audience", type=click.Choice(recap.AUDIENCES), default="gm", show_default=True,
              help=gettext("gm: everything; players: nothing secret"))
@click.option("--lang", "language", type=click.Choice(LANGUAGES), default=None,
              help=gettext("the recap's language (the campaign's when not given)"))
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True),
              help=gettext("a file instead of stdout"))
@in_cli_language
def recap_command(session: str, fmt: str, audience: str, language: str | None, output: str | None) -> None:
    """Write the recap of play session SESSION (its id) as Markdown, HTML or JSON."""
    db = open_db(current_app.config["DATABASE"])
    try:
        text = recap.render(recap.build(db, session, audience, language), fmt)
    except NotFound as missing:
        raise click.ClickException(str(t("{problem}: {session}", problem=missing, session=session))) from None
    finally:
        db.close()
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    else:
        click.echo(text, nl=False)
