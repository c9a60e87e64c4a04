"""One module per ``referee`` subcommand (see :mod:`referee.cli`)."""
