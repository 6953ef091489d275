"""Tools for bot authors and organisers: play, check-bot, replay."""
