"""One rule for same names on every database: each user's name key (NFKC, case fold, the
confusable skeleton; baohuang.server.names), unique among members.

SQLite's ``lower()`` folds ASCII only, so the index of 0003 let two members be Élodie and
élodie, and Latin and Cyrillic look-alikes (Аlice) passed on both databases. Later duplicate
members get their id appended, as in 0003, so that each keeps its games.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from baohuang.server.names import name_key

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

MEMBERS = sa.text("password_hash IS NOT NULL")


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_key", sa.String(120), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(
        sa.text("SELECT id, name, password_hash IS NOT NULL FROM users ORDER BY id")
    ).all()
    seen: set[str] = set()
    for user_id, name, member in rows:
        key = name_key(name)
        if member and key in seen:
            name = f"{name[:30]}#{user_id}"
            key = name_key(name)
        if member:
            seen.add(key)
        connection.execute(
            sa.text("UPDATE users SET name = :name, name_key = :key WHERE id = :id"),
            {"name": name, "key": key, "id": user_id},
        )
    op.drop_index("uq_users_member_name", table_name="users")
    op.create_index(
        "uq_users_member_key",
        "users",
        ["name_key"],
        unique=True,
        sqlite_where=MEMBERS,
        postgresql_where=MEMBERS,
    )


def downgrade() -> None:
    op.drop_index("uq_users_member_key", table_name="users")
    op.create_index(
        "uq_users_member_name",
        "users",
        [sa.text("lower(name)")],
        unique=True,
        sqlite_where=MEMBERS,
        postgresql_where=MEMBERS,
    )
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_key")
