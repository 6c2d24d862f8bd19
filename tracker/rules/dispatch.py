"""``functools.singledispatch`` with each type's handler found once, in a plain dict.

A fold dispatches every event of the log by its type; ``singledispatch`` looks the handler up
in a weak-keyed cache (Python code, a third of the call's cost). ``by_type`` keeps the same
registry and the same choice of handler (``singledispatch``'s own ``dispatch``) and only
remembers it per type, forgetting everything whenever a handler is registered.
"""
from __future__ import annotations

import functools
from typing import Any, Callable


def by_type(default: Callable) -> Callable:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    """Decorate the function called for a type no handler is registered for, as
    ``singledispatch``; register handlers with ``.register`` as with it."""
    generic = functools.singledispatch(default)
    found: dict[type, Callable] = {}

    @functools.wraps(default)
    def call(first: Any, *args: Any, **kwargs: Any) -> Any:
        handler = found.get(first.__class__)
        if handler is None:
            handler = found[first.__class__] = generic.dispatch(first.__class__)
        return handler(first, *args, **kwargs)

    def register(cls: Any, func: Callable | None = None) -> Callable:
        found.clear()
        if func is None and isinstance(cls, type):  # @f.register(SomeType)
            return lambda later: register(cls, later)
        return generic.register(cls, func)

    call.register = register  # type: ignore[attr-defined]
    call.dispatch = generic.dispatch  # type: ignore[attr-defined]
    call.registry = generic.registry  # type: ignore[attr-defined]
    return call
