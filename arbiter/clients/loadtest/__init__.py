"""The load tester: simulated players in worker processes, live statistics, a report."""
