"""The terminal client (``arbiter play``): a Textual app on the trio SDK, run in trio's guest
mode inside Textual's asyncio loop."""
