"""Statistics behind the standings: maximum likelihood, bootstrap, SPRT."""
