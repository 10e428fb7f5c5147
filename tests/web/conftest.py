"""The fixtures the browser tests share: one Chromium per test module, and a fresh seeded
``arbiter serve`` per test (tests/web/browser.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import Server, chromium, running_server


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with running_server(tmp_path) as s:
        yield s
