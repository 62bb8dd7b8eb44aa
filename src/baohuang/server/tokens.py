"""What the server keeps of a secret token (a login cookie's, a seat's): its sha256, never the
token itself."""

from __future__ import annotations

import hashlib


def hash_token(token: str) -> str:
    """The sha256 of ``token``, as hex: what is stored and compared."""
    return hashlib.sha256(token.encode()).hexdigest()
