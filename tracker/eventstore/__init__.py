"""Layer 2: the append-only event store (the only source of truth), its SQL dialects
and the forked readers of a long log."""
