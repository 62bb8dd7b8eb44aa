"""Alembic's environment for the server's database: run on the connection the store gives it
(``config.attributes["connection"]``), against the store's models."""

from __future__ import annotations

from alembic import context

from baohuang.server.store import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters a table by copying it
)
with context.begin_transaction():
    context.run_migrations()
