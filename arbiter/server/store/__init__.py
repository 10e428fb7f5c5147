"""The durable log: rooms, seats, sessions and every accepted command, in SQLite (WAL)."""
