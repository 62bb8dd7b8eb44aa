"""段位: a rating per player and preset, and its history game by game.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(40), primary_key=True),
        sa.Column("preset", sa.String(40), primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("bot", sa.String(16), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
    )
    op.create_index("ix_ratings_user_id", "ratings", ["user_id"])
    op.create_table(
        "rating_steps",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_steps_player", "rating_steps", ["player", "preset"])
    op.create_index("ix_rating_steps_game_id", "rating_steps", ["game_id"])


def downgrade() -> None:
    op.drop_table("rating_steps")
    op.drop_table("ratings")
