"""The crawl tier's own check: the server log of every crawled test holds no error (a template that
failed to render, an exception caught into a friendly page), whatever status the page answered."""
import logging

import pytest


@pytest.fixture(autouse=True)
def no_error_in_the_server_log(caplog):
    caplog.set_level(logging.WARNING)
    yield
    errors = [f"{r.name}: {r.getMessage()}" for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert not errors, errors[:5]
