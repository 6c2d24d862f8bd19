"""``mutmut``, with the rules' messages left alone: ``python tests/mutation/run.py run …``.

The rules say every sentence as ``t("…{name}…", name=…)`` (``tracker.rules.text``). Mutating the
message id or its values changes only wording, which the catalogs' tests and the exact-text rule
tests already hold; left in, each message adds mutants that say nothing about the rules. mutmut
already never mutates calls to ``len`` and ``isinstance``: the messages' calls join that set.
Its name is mutmut's own (3.8), hence the pin below 3.9 in pyproject.toml.
"""
from mutmut.__main__ import cli
from mutmut.mutation import file_mutation

MESSAGE_CALLS = {"t", "tn"}

file_mutation.NEVER_MUTATE_FUNCTION_CALLS.update(MESSAGE_CALLS)

if __name__ == "__main__":
    cli()
