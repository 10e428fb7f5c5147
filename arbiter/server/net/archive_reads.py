"""Answering the requests the room core hands out as reads (``Effects.reads``): a replay of a
finished game and a match history, read from the log through an
:class:`~arbiter.server.store.archive.Archive` (SQLite or PostgreSQL) and computed by the pure
functions of :mod:`arbiter.server.rooms.replays`.

The connection that asked waits for its answer before its next message is read (its reads are
answered one at a time, in order, like every other request of it), while every other
connection goes on: the log is read in a worker thread and the game is replayed in another, so
the event loop is never held for a replay.
"""

from __future__ import annotations

import logging

import trio

from arbiter.protocol import requests as rq
from arbiter.protocol.codec import pack
from arbiter.protocol.errors import Code, Refusal
from arbiter.protocol.server_messages import Error, encode
from arbiter.server.rooms import replays
from arbiter.server.rooms.effects import Read
from arbiter.server.store.archive import Archive

log = logging.getLogger("arbiter.net")


async def answer(archive: Archive | None, read: Read) -> bytes:
    """The frame that answers ``read``: its answer, or the error that says why not."""
    req = read.request
    try:
        if archive is None:
            raise Refusal(Code.UNAVAILABLE, "this server keeps no log to replay from")
        if isinstance(req, rq.Replay):
            archived = replays.check_replayable(await archive.archived(req.game), req.game)
            viewer = replays.viewer_of(archived, read.session)
            # One more than a replay takes: a game that long is refused without reading it all.
            commands = await archive.commands(req.game, replays.MAX_REPLAY_COMMANDS + 1)
            try:
                message = await trio.to_thread.run_sync(
                    replays.replay_frames, req.id, archived, commands, viewer)
            except Refusal:
                raise
            except Exception:  # the engine failed on its own log: a bug, said as one
                log.exception("replaying game %s failed", req.game)
                raise Refusal(Code.INTERNAL, f"game {req.game} could not be replayed: a "
                                             "server bug, reported") from None
            return pack(encode(message))
        assert isinstance(req, rq.History)
        mine = (await archive.finished(read.session, replays.HISTORY_READ)
                if read.session is not None else [])
        recent = await archive.finished(None, replays.HISTORY_READ)
        return pack(encode(replays.history(req.id, mine, recent)))
    except Refusal as exc:
        return pack(encode(Error(exc.code, exc.message, req.id)))
    except Exception as exc:  # the log unreachable (a cluster's), or a bug: said, not raised
        log.warning("%s request failed: %r", req.TYPE, exc)
        return pack(encode(Error(Code.UNAVAILABLE, "the game log could not be read just now: "
                                 "try again shortly", req.id)))
