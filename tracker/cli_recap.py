"""The ``recap`` command: a session's recap on standard output (or in a file)."""
from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext

from tracker import recap
from tracker.db import open_db
from tracker.services import NotFound


@click.command("recap")
@with_appcontext
@click.argument("session")
@click.option("--format", "fmt", type=click.Choice(list(recap.FORMATS)), default="md", show_default=True)
@click.option("--audience", type=click.Choice(recap.AUDIENCES), default="gm", show_default=True,
              help="gm: everything; players: nothing secret")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), help="a file instead of stdout")
def recap_command(session: str, fmt: str, audience: str, output: str | None) -> None:
    """Write the recap of play session SESSION (its id) as Markdown, HTML or JSON."""
    db = open_db(current_app.config["DATABASE"])
    try:
        text = recap.render(recap.build(db, session, audience), fmt)
    except NotFound as missing:
        raise click.ClickException(f"{missing}: {session}") from None
    finally:
        db.close()
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    else:
        click.echo(text, nl=False)
