"""The websockets (trio) endpoint: connections, limits, heartbeats, backpressure, HTTP probes."""
