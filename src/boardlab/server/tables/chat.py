"""A table's chat: read once from the database (every time where processes share it), written by the seated players."""

from __future__ import annotations

import json
import time
from typing import Any

from ..errors import bad_request, forbidden
from ..live import LiveTable
from ..store import ChatRow
from .base import CHAT_KEEP, CHAT_MAX, PlatformBase


class Chat(PlatformBase):
    """The table's chat, stored and sent to every page of the table."""

    async def chat_messages(self, table: LiveTable) -> list[dict[str, Any]]:
        """The table's chat, oldest first (loaded from the database once; every time where other processes share it,
        so a message said at another process a moment ago is there)."""
        if self.store.shared:
            return [r.to_json() for r in await self._db(self.store.chat, table.id)]
        if table.chat is None:
            rows = await self._db(self.store.chat, table.id)
            if table.chat is None:
                table.chat = [r.to_json() for r in rows]
        return list(table.chat)

    async def say(self, table: LiveTable, seat: int | None, text: Any) -> dict[str, Any]:
        """A seated player's chat message: stored, then sent to every page of the table. Spectators only read."""
        if seat is None:
            raise forbidden("spectators can read the chat; only the players write in it")
        if not isinstance(text, str):
            raise bad_request("a chat message is text")
        text = "".join(ch for ch in text if ch in "\n\t" or ch.isprintable()).strip()
        if not text:
            raise bad_request("a chat message needs some text")
        if len(text) > CHAT_MAX:
            raise bad_request(f"a chat message is at most {CHAT_MAX} characters; this one has {len(text)}")
        if not self.store.shared:
            await self.chat_messages(table)
        row = ChatRow(seat, str(table.seats[seat]["name"]), text, time.time())
        await self._write(self.store.op_chat, table.id, row, CHAT_KEEP)  # (and announced to other processes)
        message = row.to_json()
        if table.chat is not None:
            table.chat = [*table.chat, message][-CHAT_KEEP:]
        self._send_chat(table, message)
        return message

    def _send_chat(self, table: LiveTable, message: dict[str, Any]) -> None:
        text_out = json.dumps({"type": "chat", "message": message}, separators=(",", ":"), ensure_ascii=False)
        for c in list(table.connections):
            c.send(text_out)
