"""Layer 1, with tracker.rules the one pure layer: the facts of the log (events), the
errors a command can meet, the languages, accounts and the GM's workspace as rules.
Nothing here does I/O."""
