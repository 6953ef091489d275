"""The progress line: redrawn in place on a terminal, ended once, whatever stops the run."""

from __future__ import annotations

import io

from arena.show.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_run_stopped_early_ends_the_line_once() -> None:
    screen = Terminal()
    progress = Progress("sprt", screen)
    progress(3, 40)  # an SPRT decided after 3 of at most 40 games
    assert not screen.getvalue().endswith("\n")
    progress.finish()
    progress.finish()
    assert "3/40 games" in screen.getvalue()
    assert screen.getvalue().count("\n") == 1 and screen.getvalue().endswith("\n")


def test_a_finished_run_gets_no_empty_line() -> None:
    screen = Terminal()
    progress = Progress("demo", screen)
    progress(27, 27)
    progress.finish()
    assert screen.getvalue().count("\n") == 1 and screen.getvalue().endswith("\n")


def test_a_log_file_gets_whole_lines_only() -> None:
    log = io.StringIO()
    progress = Progress("demo", log, every_s=0)
    progress(1, 27)
    progress.finish()
    assert log.getvalue().count("\n") == 1 and log.getvalue().endswith("\n")


def test_counts_are_written_with_thousands_separators() -> None:
    """As the run's first line says "9,000,000,000 games scheduled"."""
    log = io.StringIO()
    Progress("huge", log, every_s=0)(1_234, 9_000_000_000)
    assert " 1,234/9,000,000,000 games " in log.getvalue()
