"""One load-test worker process: ``python -m arbiter.clients.loadtest.worker CONFIG_JSON INDEX``.

It runs its share of the rooms and writes JSON lines to standard output: a progress report
every half second and a final report (see :class:`~clients.loadtest.stats.Recorder`).
"""

from __future__ import annotations

import gc
import json
import sys

import trio

from .runner import LoadConfig, run_worker
from .stats import Recorder


def _emit(report: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(report, separators=(",", ":")) + "\n")
    sys.stdout.flush()


async def main(config: LoadConfig, worker: int) -> None:
    recorder = Recorder(trio.current_time())
    async with trio.open_nursery() as nursery:
        async def progress() -> None:
            while True:
                await trio.sleep(0.5)
                _emit(recorder.progress())

        async def freeze() -> None:
            # A thousand clients' replicas make a large heap, and Python's full collections
            # of it stall this process for 100-200 ms at a time, which would show up as
            # server latency. Moving what exists into the permanent generation keeps the
            # collections short (at the cost of never freeing cycles made before: fine for a
            # process that lives for one test). Often, for the young collections: they come
            # seldom in steady play and then walk everything made since the last (20-30 ms
            # each; arbiter/server/net/collector.py says why), unless a freeze took it first.
            while True:
                await trio.sleep(0.1)
                gc.freeze()

        nursery.start_soon(progress)
        nursery.start_soon(freeze)
        await run_worker(config, worker, recorder)
        nursery.cancel_scope.cancel()
    _emit(recorder.final())


if __name__ == "__main__":
    trio.run(main, LoadConfig(**json.loads(sys.argv[1])), int(sys.argv[2]))
