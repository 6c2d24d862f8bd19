"""A throwaway PostgreSQL cluster for the tests: Debian's server binaries, a data directory and a
Unix socket in a temporary directory, started once per test session and stopped at its end.

Run as root, the cluster belongs to the unprivileged ``postgres`` user (PostgreSQL refuses to run
as root). It listens on no TCP port at all. Each test gets its own database, copied from a
template that already holds the schema (a copy costs milliseconds, a schema hundreds).
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile

TEMPLATE = "touche_template"


def binaries() -> str | None:
    """The newest installed server's bin directory (Debian keeps it off the PATH)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return os.path.dirname(found[-1]) if found else None


class Cluster:
    def __init__(self, bin_dir: str, durable: bool = False):
        self.bin_dir, self.durable = bin_dir, durable
        self.root = tempfile.mkdtemp(prefix="touche-pg-")
        self.data = os.path.join(self.root, "data")
        self.as_root = os.getuid() == 0
        self.names = itertools.count(1)
        if self.as_root:
            entry = pwd.getpwnam("postgres")
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        os.chmod(self.root, 0o755)

    def _run(self, *args: str) -> None:
        command = [os.path.join(self.bin_dir, args[0]), *args[1:]]
        if self.as_root:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.root)

    def start(self) -> "Cluster":
        self._run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
                  "--no-sync")
        # No TCP, the socket beside the data. Test data is thrown away: no fsync. A benchmark's
        # cluster writes as SQLite does under Touché (WAL, synchronous=NORMAL): pages fsynced, the
        # last commits possibly lost at a power cut (synchronous_commit=off), never the integrity.
        options = (f"-c listen_addresses='' -c unix_socket_directories='{self.root}'"
                   " -c synchronous_commit=off -c max_connections=300 -c shared_buffers=128MB"
                   + ("" if self.durable else " -c fsync=off -c full_page_writes=off"))
        self._run("pg_ctl", "-D", self.data, "-o", options, "-l", os.path.join(self.root, "log"), "-w", "start")
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.root}"

    def admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(sql)

    def prepare_template(self) -> None:
        """A database holding the schema, for every test's database to copy."""
        from tracker.bootstrap.db import open_db

        self.admin(f"CREATE DATABASE {TEMPLATE}")
        open_db(self.url(TEMPLATE)).close()

    def new_database(self) -> str:
        name = f"touche_{os.getpid()}_{next(self.names)}"
        self.admin(f"CREATE DATABASE {name} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        return self.url(name)

    def drop_database(self, url: str) -> None:
        from tracker.eventstore import dialect

        dialect.close_pool(url)
        name = url.split("?")[0].rsplit("/", 1)[1]
        self.admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
