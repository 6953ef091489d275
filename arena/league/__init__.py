"""A league and its results folder: schedules, the runner and the store."""
