"""Participants' tokens: shown once, stored only as a hash, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24  # 192 bits of randomness; printed as 32 url-safe characters


def new_token() -> str:
    """A fresh token for a participant (printed once, never stored)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    """What the database keeps of a token. A token is random and long, so a plain SHA-256
    (no salt, no key stretching) cannot be reversed; it lets a token be looked up by hash."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(stored: str, token: str) -> bool:
    """Does ``token`` hash to ``stored``? In constant time (no early exit on a mismatch)."""
    return hmac.compare_digest(stored.encode(), token_hash(token).encode())


def form_token(secret: bytes, session: str) -> str:
    """The CSRF token of a browser session: a keyed hash of the session cookie, so a page
    of another site can neither read nor forge it."""
    return hmac.new(secret, f"csrf:{session}".encode(), hashlib.sha256).hexdigest()


def same_text(a: str, b: str) -> bool:
    """Constant-time comparison of two strings."""
    return hmac.compare_digest(a.encode(), b.encode())
