"""One game between seats: bot processes, the watchdog, seats and the referee."""
