"""Layer 4: the flow of a command: commands in, the policy that allows them, the
handlers that decide events with the rules, and the service that appends them."""
