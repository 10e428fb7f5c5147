"""Whether a set of players can all be paired with nobody meeting a forbidden opponent, and a
pairing that does it: a maximum matching in a general graph (Edmonds' blossom algorithm).

Swiss pairing (swiss.py) first searches the standings order for a pairing without rematches,
within a bounded number of steps; when that bound runs out it asks this module, which answers
in polynomial time (O(n^3) for n players; a few milliseconds for a pod of 64), so "no rematch
while one can be avoided" holds however tangled the earlier rounds were.
"""

from __future__ import annotations

from collections import deque


class _Blossom:
    """One run of the algorithm on vertices 0..n-1 with adjacency lists ``adj``."""

    def __init__(self, adj: list[list[int]]) -> None:
        self.n = len(adj)
        self.adj = adj
        self.match = [-1] * self.n
        self.parent = [-1] * self.n
        self.base = list(range(self.n))
        self.used = [False] * self.n
        self.blossom = [False] * self.n

    def _lca(self, a: int, b: int) -> int:
        """The base of the blossom closed by the edge a-b: the first common vertex of both
        alternating paths back to the root."""
        seen = [False] * self.n
        while True:
            a = self.base[a]
            seen[a] = True
            if self.match[a] == -1:
                break
            a = self.parent[self.match[a]]
        while True:
            b = self.base[b]
            if seen[b]:
                return b
            b = self.parent[self.match[b]]

    def _mark_path(self, v: int, b: int, child: int) -> None:
        while self.base[v] != b:
            self.blossom[self.base[v]] = self.blossom[self.base[self.match[v]]] = True
            self.parent[v] = child
            child = self.match[v]
            v = self.parent[self.match[v]]

    def _augmenting_end(self, root: int) -> int:
        """The free vertex an augmenting path from ``root`` ends at, or -1 (a BFS over the
        alternating tree, contracting each odd cycle it meets into its base)."""
        self.used = [False] * self.n
        self.parent = [-1] * self.n
        self.base = list(range(self.n))
        self.used[root] = True
        queue = deque([root])
        while queue:
            v = queue.popleft()
            for to in self.adj[v]:
                if self.base[v] == self.base[to] or self.match[v] == to:
                    continue
                if to == root or (self.match[to] != -1 and self.parent[self.match[to]] != -1):
                    top = self._lca(v, to)
                    self.blossom = [False] * self.n
                    self._mark_path(v, top, to)
                    self._mark_path(to, top, v)
                    for i in range(self.n):
                        if self.blossom[self.base[i]]:
                            self.base[i] = top
                            if not self.used[i]:
                                self.used[i] = True
                                queue.append(i)
                elif self.parent[to] == -1:
                    self.parent[to] = v
                    if self.match[to] == -1:
                        return to
                    self.used[self.match[to]] = True
                    queue.append(self.match[to])
        return -1

    def run(self) -> list[int]:
        for root in range(self.n):
            if self.match[root] != -1:
                continue
            v = self._augmenting_end(root)
            while v != -1:  # flip the path's edges: one more pair
                pv = self.parent[v]
                ppv = self.match[pv]
                self.match[v] = pv
                self.match[pv] = v
                v = ppv
        return self.match


def perfect_pairing(players: list[str], allowed: set[frozenset[str]]
                    ) -> list[tuple[str, str]] | None:
    """Pairs covering every one of ``players`` (an even number), each pair in ``allowed``,
    or None when there is no such pairing. Pairs are in the order of ``players``: the
    earlier player of each pair first, pairs ordered by it."""
    index = {p: i for i, p in enumerate(players)}
    adj: list[list[int]] = [[] for _ in players]
    for i, p in enumerate(players):
        adj[i] = [index[q] for q in players if q != p and frozenset((p, q)) in allowed]
    match = _Blossom(adj).run()
    if len(players) % 2 or -1 in match:
        return None
    return [(players[i], players[j]) for i, j in enumerate(match) if i < j]
