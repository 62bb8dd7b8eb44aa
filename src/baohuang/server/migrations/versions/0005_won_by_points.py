"""R10.3 (revised turn 3): a result row's ``won`` is the sign of its side's points.

QQ games stored before the revision counted QQ's tribute rule (收贡/平贡/进贡) as the winner, so
a row could say ``won = false`` beside +16. A seat's points share its side's sign (emperor
2T, guard T, rebels −T; R10.1), so ``won`` is ``points > 0`` in every stored row (a draw and
an escape score no positive points); only rows that say otherwise change.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

RESULTS = sa.table("results", sa.column("won", sa.Boolean()), sa.column("points", sa.Integer()))


def upgrade() -> None:
    by_points = RESULTS.c.points > 0
    op.execute(RESULTS.update().where(RESULTS.c.won != by_points).values(won=by_points))


def downgrade() -> None:
    """Nothing to undo: the rows were wrong before."""
