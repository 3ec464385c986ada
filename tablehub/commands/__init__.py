"""One module per ``tablehub`` subcommand (see tablehub/cli.py for the contract)."""
