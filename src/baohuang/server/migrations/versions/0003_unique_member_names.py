"""A registered name belongs to one account: a unique index on lower(name) of members.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

MEMBERS = sa.text("password_hash IS NOT NULL")


def upgrade() -> None:
    # Names registered twice before the index (two registrations at the same moment): the
    # later accounts get their id appended, so that each keeps its games.
    connection = op.get_bind()
    rows = connection.execute(
        sa.text("SELECT id, name FROM users WHERE password_hash IS NOT NULL ORDER BY id")
    ).all()
    seen: set[str] = set()
    for user_id, name in rows:
        if name.lower() in seen:
            renamed = f"{name[:30]}#{user_id}"
            connection.execute(
                sa.text("UPDATE users SET name = :name WHERE id = :id"),
                {"name": renamed, "id": user_id},
            )
        seen.add(name.lower())
    op.create_index(
        "uq_users_member_name",
        "users",
        [sa.text("lower(name)")],
        unique=True,
        sqlite_where=MEMBERS,
        postgresql_where=MEMBERS,
    )


def downgrade() -> None:
    op.drop_index("uq_users_member_name", table_name="users")
