"""If It Fits (Adrie Drent, Jolly Dutch 2021): cats, cardboard boxes and a shared layout."""

from engines.base import Engine
from engines.if_it_fits.rules import IfItFitsEngine, IfItFitsState

ENGINE: Engine = IfItFitsEngine()

__all__ = ["ENGINE", "IfItFitsEngine", "IfItFitsState"]
