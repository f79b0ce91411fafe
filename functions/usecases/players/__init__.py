"""Who the players are: callers and their tokens (identity), the roster of seats, the ballots of draws
and concessions, the join limits."""
