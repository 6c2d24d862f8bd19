"""Read models projected from the event log."""
