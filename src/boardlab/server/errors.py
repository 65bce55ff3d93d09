"""Errors the API answers with: always a 4xx JSON body ``{"error": code, "message": sentence}``."""

from __future__ import annotations

from typing import Any

from ..core.wording import for_players


class ApiError(Exception):
    """A refused request. ``code`` is a stable machine word, ``message`` a sentence for people."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


def bad_request(message: str, **extra: Any) -> ApiError:
    return ApiError(400, "bad_request", message, **extra)


def unauthorized(message: str = "this needs a seat or spectator token (Authorization: Bearer …)") -> ApiError:
    return ApiError(401, "no_token", message)


def forbidden(message: str) -> ApiError:
    return ApiError(403, "forbidden", message)


def not_found(message: str) -> ApiError:
    return ApiError(404, "not_found", message)


def conflict(code: str, message: str, **extra: Any) -> ApiError:
    return ApiError(409, code, message, **extra)


def illegal(message: str, **extra: Any) -> ApiError:
    """An illegal move, with the rules' reason in players' words (no clause references)."""
    return ApiError(422, "illegal_move", for_players(message), **extra)
