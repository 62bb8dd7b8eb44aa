"""Guests, members and their sessions: ``/api/guest``, ``/api/register``, ``/api/login``,
``/api/logout``, ``/api/me`` (the login cookie, :mod:`baohuang.server.accounts`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from ..accounts import COOKIE, SESSION_SECONDS
from ..store import UserRow
from .deps import ClientAddress, CurrentUser, LoginCookie, NodeServices, public_user

router = APIRouter(prefix="/api")


class Credentials(BaseModel):
    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class Nickname(BaseModel):
    name: str = Field(max_length=100)


def opened(request: Request, response: Response, user: UserRow, token: str) -> dict[str, Any]:
    """The session ``token`` set as the login cookie; the user as the page shows them."""
    response.set_cookie(
        COOKIE,
        token,
        max_age=SESSION_SECONDS,
        httponly=True,
        samesite="lax",
        path="/",
        secure=request.url.scheme == "https",  # behind a TLS proxy: see --proxy
    )
    return public_user(user)


@router.post("/guest")
async def guest(
    body: Nickname, request: Request, response: Response, node: NodeServices, where: ClientAddress
) -> dict[str, Any]:
    return opened(request, response, *await node.accounts.guest(body.name, where))


@router.post("/register")
async def register(
    body: Credentials,
    request: Request,
    response: Response,
    node: NodeServices,
    where: ClientAddress,
) -> dict[str, Any]:
    made = await node.accounts.register(body.name, body.password, where)
    return opened(request, response, *made)


@router.post("/login")
async def login(
    body: Credentials,
    request: Request,
    response: Response,
    node: NodeServices,
    where: ClientAddress,
) -> dict[str, Any]:
    made = await node.accounts.login(body.name, body.password, where)
    return opened(request, response, *made)


@router.post("/logout")
async def logout(
    response: Response, node: NodeServices, session: LoginCookie = None
) -> dict[str, Any]:
    await node.accounts.logout(session)
    response.delete_cookie(COOKIE, path="/")
    return {}


@router.get("/me")
async def me(user: CurrentUser) -> dict[str, Any]:
    return public_user(user)
