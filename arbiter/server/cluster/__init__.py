"""Cluster mode: the durable log in PostgreSQL, the live directory in Redis/Valkey."""
