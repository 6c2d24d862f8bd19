"""The gettext catalogs: extract every message from the code, update each language's ``.po``, and
compile the ``.mo`` files the app reads. ``python -m tracker.i18n.catalogs update|compile|check``.

There is one catalog for the core (``tracker/`` and ``templates/`` outside any ruleset), one for
the words every ruleset shares (``tracker/rules/*.py``) and one in each ruleset's package (its
Python and its templates in ``templates/duels/<NAME>/``), found through the registry, so the core
never names a ruleset and a ruleset brings its own words.

English is the source language: its catalog's translations are the message ids themselves, kept
in the file so "every message translated" is checked the same way for both languages. ``.mo``
files are built at install (``make``) and never committed.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "es")
KEYWORDS = {"t": None, "tn": (1, 2), "_": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None,
            "_l": None, "N_": None}
JINJA = {"extensions": "jinja2.ext.do,jinja2.ext.loopcontrols", "trimmed": "true"}


@dataclass(frozen=True)
class Source:
    """One folder scanned for messages, and the paths (relative to it) left to other catalogs."""
    folder: Path
    ignore: tuple[str, ...] = ()

    def method_map(self) -> list[tuple[str, str]]:
        return [*((pattern, "ignore") for pattern in self.ignore), ("**.py", "python"), ("**.html", "jinja2")]


@dataclass(frozen=True)
class CatalogSpec:
    name: str
    directory: Path  # holds <lang>/LC_MESSAGES/messages.po
    sources: tuple[Source, ...]


def specs() -> list[CatalogSpec]:
    """Every catalog: the core's, the shared rules', then each registered ruleset's."""
    from tracker import rules

    ruleset_names = sorted(rules.RULESETS)
    rules_dir = ROOT / "tracker" / "rules"
    found = [
        CatalogSpec("core", ROOT / "tracker" / "i18n" / "translations", (
            Source(ROOT / "tracker", ("rules/**",)),
            Source(ROOT / "templates", tuple(f"duels/{name}/**" for name in ruleset_names)),
        )),
        CatalogSpec("rules", rules_dir / "translations", (Source(rules_dir, ("*/**",)),)),
    ]
    for name in ruleset_names:
        package = Path(rules.RULESETS[name].__file__).resolve().parent
        if not package.is_relative_to(ROOT / "tracker"):
            continue  # a ruleset registered from outside the app (the tests' coin) brings no catalog
        found.append(CatalogSpec(name, package / "translations", (
            Source(package), Source(ROOT / "templates" / "duels" / name))))
    return found


def extract(spec: CatalogSpec) -> Catalog:
    """The catalog's message ids as the code has them now (a template for each language)."""
    template = Catalog(project="Touché", fuzzy=False)
    for source in spec.sources:
        if not source.folder.is_dir():
            continue
        options = {"**.html": JINJA}
        for filename, lineno, message, comments, context in extract_from_dir(
                source.folder, source.method_map(), options, keywords=KEYWORDS, comment_tags=("NOTE:",),
                strip_comment_tags=True):
            where = str((source.folder / filename).relative_to(ROOT))
            template.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return template


def po_path(spec: CatalogSpec, language: str) -> Path:
    return spec.directory / language / "LC_MESSAGES" / "messages.po"


def read(path: Path, language: str) -> Catalog:
    if not path.exists():
        return Catalog(locale=language, project="Touché", fuzzy=False)
    with path.open("rb") as f:
        return read_po(f, locale=language)


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = BytesIO()
    write_po(buffer, catalog, width=0, sort_output=True, omit_header=False, ignore_obsolete=True,
             include_previous=False)
    # The header's dates change on every run; drop them so an unchanged catalog stays unchanged.
    lines = [line for line in buffer.getvalue().decode().splitlines(keepends=True)
             if not line.startswith(('"POT-Creation-Date:', '"PO-Revision-Date:'))]
    path.write_text("".join(lines), encoding="utf-8")


def updated(spec: CatalogSpec, language: str) -> Catalog:
    """The language's catalog brought up to date with the code: new ids added, gone ones dropped,
    no fuzzy guesses (an unmatched id stays untranslated, which ``check`` reports)."""
    catalog = read(po_path(spec, language), language)
    catalog.update(extract(spec), no_fuzzy_matching=True, update_header_comment=False)
    if language == "en":  # the source language translates each id to itself
        for message in catalog:
            if message.id and not _translated(message):
                message.string = message.id if not message.pluralizable else tuple(message.id)
    return catalog


def _translated(message) -> bool:
    strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
    return all(strings) and bool(strings)


def update() -> None:
    for spec in specs():
        for language in LANGUAGES:
            write(po_path(spec, language), updated(spec, language))


def compile_all() -> None:
    for spec in specs():
        for language in LANGUAGES:
            path = po_path(spec, language)
            if path.exists():
                _write_atomically(path.with_suffix(".mo"), read(path, language))


def _write_atomically(target: Path, catalog) -> None:
    """Write ``catalog`` as ``target`` only when it changed, through a file renamed over it: a
    server (or a test process beside this one) reading the catalog never sees it half written."""
    buffer = BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    if target.exists() and target.read_bytes() == buffer.getvalue():
        return
    partial = target.with_name(f".{target.name}.{os.getpid()}")
    partial.write_bytes(buffer.getvalue())
    os.replace(partial, target)


def problems() -> list[str]:
    """What is wrong with the catalogs: out of date with the code, untranslated or fuzzy messages."""
    found = []
    for spec in specs():
        for language in LANGUAGES:
            path = po_path(spec, language)
            have = read(path, language)
            want = updated(spec, language)
            if {m.id for m in have if m.id} != {m.id for m in want if m.id}:
                missing = {m.id for m in want if m.id} - {m.id for m in have if m.id}
                gone = {m.id for m in have if m.id} - {m.id for m in want if m.id}
                found.append(f"{path.relative_to(ROOT)} is out of date with the code: {len(missing)} new, "
                             f"{len(gone)} gone (run python -m tracker.i18n.catalogs update)")
            for message in have:
                if not message.id:
                    continue
                if message.fuzzy:
                    found.append(f"{path.relative_to(ROOT)}: fuzzy: {message.id!r}")
                elif not _translated(message):
                    found.append(f"{path.relative_to(ROOT)}: untranslated: {message.id!r}")
    return found


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = problems()
        print("\n".join(found) or "every catalog is complete and up to date")
        return 1 if found else 0
    else:
        print("usage: python -m tracker.i18n.catalogs update|compile|check", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
