"""The one exception a room refuses a request with: a code, its arguments, and a message
for logs (the page renders the code, never the message)."""

from __future__ import annotations


class ClientError(Exception):
    """A request refused with a reason the person can read; nothing was changed."""

    def __init__(self, code: str, message: str, status: int | None = None,
                 args: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status or (413 if code == "too_large" else 400)
        self.details = args  # the code's arguments, if it has any (e.g. bad_text)
