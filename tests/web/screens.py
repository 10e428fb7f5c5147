"""Screens compared with their reference pictures (issue 29: the phone layout's main screens).

A screenshot is compared with ``tests/web/reference/NAME.png`` for its layout, not its pixels:
both are reduced to a quarter of their size (each pixel the mean of a 4 x 4 block) and the share
of reduced pixels that differ by more than :data:`TOLERANCE` in some channel must stay under
:data:`LIMIT`. A panel that moves, grows, vanishes or pushes the page sideways changes whole
blocks and fails; a Chromium that draws glyphs a little differently moves a pixel here and there
inside a block and does not. The servers in tests/web are seeded, so a screen taken at the same
point of a game shows the same game every run.

To accept a changed screen, run the test with ``ARBITER_UPDATE_SCREENS=1``, look at the new
picture, and commit it. A failing comparison leaves ``NAME.actual.png`` and ``NAME.diff.png``
(the reduced difference, brightened) in tests/web/screenshots/.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

REFERENCE = Path(__file__).parent / "reference"
SHOTS = Path(__file__).parent / "screenshots"
REDUCE = 4  # the side of the block a reduced pixel stands for
TOLERANCE = 48  # of 255: a block's mean colour moved this much is a block that changed
LIMIT = 0.01  # the share of changed blocks a screen may have (0 on one machine, run to run)


def difference(reference: Image.Image, actual: Image.Image) -> tuple[float, Image.Image]:
    """The share of changed blocks between two screens of one size, and the reduced picture
    of their difference."""
    a = reference.convert("RGB").reduce(REDUCE)
    b = actual.convert("RGB").reduce(REDUCE)
    diff = ImageChops.difference(a, b)
    r, g, b = diff.split()
    peak = ImageChops.lighter(ImageChops.lighter(r, g), b)  # each block's largest change
    changed = sum(peak.histogram()[TOLERANCE + 1:])
    return changed / (diff.width * diff.height), diff


def assert_looks_like(person: Any, name: str, mask: tuple[str, ...] = (),
                      full_page: bool = False) -> None:
    """The page of ``person`` looks like the reference screen ``name`` (``mask``: selectors of
    parts that change from run to run, painted over in both): what the screen shows, or the
    whole page (``full_page``: a page that scrolls, without parts fixed to the screen, which
    a whole-page picture would draw at one place of the page)."""
    page = person.page
    png = page.screenshot(full_page=full_page, animations="disabled", caret="hide",
                          mask=[page.locator(m) for m in mask])
    reference = REFERENCE / f"{name}.png"
    if os.environ.get("ARBITER_UPDATE_SCREENS"):
        REFERENCE.mkdir(exist_ok=True)
        reference.write_bytes(png)
        return
    if not reference.exists():
        pytest.fail(f"no reference screen {reference}: run this test with "
                    "ARBITER_UPDATE_SCREENS=1, look at the picture, and commit it")
    want, got = Image.open(reference), Image.open(io.BytesIO(png))
    if want.size != got.size:
        pytest.fail(f"screen {name} is {got.size}, its reference {want.size}")
    share, diff = difference(want, got)
    print(f"screen {name}: {share:.2%} of its blocks changed (limit {LIMIT:.0%})")
    if share > LIMIT:
        SHOTS.mkdir(parents=True, exist_ok=True)
        got.save(SHOTS / f"{name}.actual.png")
        diff.point(lambda v: min(255, v * 4)).save(SHOTS / f"{name}.diff.png")
        pytest.fail(f"screen {name} differs from its reference in {share:.1%} of its blocks "
                    f"(limit {LIMIT:.0%}): see {SHOTS}/{name}.actual.png and .diff.png; if the "
                    "change is meant, update it with ARBITER_UPDATE_SCREENS=1")
