"""Self-contained HTML pages: the league report and the step-by-step game viewer."""
