"""What the routers share: the node's services and the named dependencies that read them
(``CurrentUser``, ``Viewer``, ``ClientAddress``), and the errors every room answers with.
HTTP errors are ``{"detail": {"code", "key", "params", "message", "zh"}}``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Cookie, Depends, Request

from ...engine.rules import PRESETS
from ..accounts import COOKIE, Accounts
from ..analyses import Analyses
from ..lobby import Lobby
from ..ratelimits import Limits
from ..refusals import AccountError
from ..store import Store, UserRow


@dataclass(frozen=True, slots=True)
class Services:
    """One node's parts, as ``create_app`` made them (``app.state.services``)."""

    store: Store
    lobby: Lobby
    accounts: Accounts
    limits: Limits
    analyses: Analyses
    #: Other origins whose pages may open a table's socket (``serve --origin``).
    origins: Sequence[str] = ()
    #: ``/metrics`` answers only ``Authorization: Bearer <token>`` (``serve --metrics-token``).
    metrics_token: str | None = None


def services(request: Request) -> Services:
    return request.app.state.services  # type: ignore[no-any-return]


NodeServices = Annotated[Services, Depends(services)]
#: The login cookie (its session token), as a route parameter.
LoginCookie = Annotated[str | None, Cookie(alias=COOKIE)]


async def current_user(node: NodeServices, session: LoginCookie = None) -> UserRow:
    """The user logged in, or 401 ``login_required``."""
    user = await node.accounts.user_for(session)
    if user is None:
        raise AccountError(401, "login_required", "error.account.login_required")
    return user


async def viewer(node: NodeServices, session: LoginCookie = None) -> int | None:
    """The user id of a request's session cookie, if any (nobody is a viewer too)."""
    user = await node.accounts.user_for(session)
    return None if user is None else user.id


def client_address(request: Request) -> str:
    """The client's address (a trusted proxy's ``X-Forwarded-For`` already applied)."""
    return request.client.host if request.client else "?"


CurrentUser = Annotated[UserRow, Depends(current_user)]
Viewer = Annotated[int | None, Depends(viewer)]
ClientAddress = Annotated[str, Depends(client_address)]


def public_user(user: UserRow) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "guest": user.password_hash is None}


def not_found(key: str, name: str | int) -> AccountError:
    return AccountError(404, "not_found", key, name=name)


def known_preset(name: str) -> str:
    """``name`` if it is a preset, or the error naming the presets there are."""
    if name not in PRESETS:
        presets = ", ".join(PRESETS)
        raise AccountError(400, "bad_preset", "error.rules.preset", preset=name, presets=presets)
    return name
