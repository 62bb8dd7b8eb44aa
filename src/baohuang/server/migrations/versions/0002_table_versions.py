"""Tables carry the engine version they started under, and a note when quarantined.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.add_column(sa.Column("version", sa.String(40), nullable=True))
        table.add_column(sa.Column("note", sa.String(400), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as table:
        table.drop_column("note")
        table.drop_column("version")
