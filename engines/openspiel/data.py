"""Where an OpenSpiel game's rules and data come from (``engines.provenance``)."""

PROVENANCE = (
    "OpenSpiel's own implementation of the game (the open_spiel package, the version the "
    "engine version names); rules, parameters and data as OpenSpiel defines them, played "
    "through the arena's OpenSpiel adapter (engines/openspiel/README.md)."
)
