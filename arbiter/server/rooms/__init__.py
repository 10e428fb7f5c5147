"""Live rooms: matches, seats, spectators, per-viewer views and deltas, subgame rooms, clocks."""
