"""One module per ``companion`` subcommand; each offers ``register(subparsers)``."""
