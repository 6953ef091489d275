"""``python -m arena`` is the ``arena`` command."""

import arena.early_stop  # noqa: F401  first: a Ctrl-C while arena.cli loads stops quietly

# isort: split
from arena.cli import main

# guarded: a local Dask cluster starts its workers by re-importing the main module
if __name__ == "__main__":
    main(prog_name="arena")
