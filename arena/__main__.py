"""``python -m arena`` is the ``arena`` command."""

from arena.cli import main

# guarded: a local Dask cluster starts its workers by re-importing the main module
if __name__ == "__main__":
    main(prog_name="arena")
