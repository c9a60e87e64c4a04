"""Sides: a match's teams kept, each player's place in a match kept with its summary, and
the best round of a lowest-wins game kept as its lowest score.

The places and the best rounds are the engine's answers for the matches already stored:
this revision replays every match once (``summary.refresh_all``), which counts the
totals and the months again and rates every table's matches again.

Revision ID: 0020_sides
Revises: 0019_settings
Create Date: 2026-12-06 23:00:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0020_sides"
down_revision = "0019_settings"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("matches", schema=None) as batch:
        batch.add_column(sa.Column("teams", sa.JSON(), nullable=True))
    with op.batch_alter_table("seat_summaries", schema=None) as batch:
        batch.add_column(sa.Column("place", sa.Integer(), nullable=True))
    from referee.web.store import summary

    # The totals, months and ratings are counted again too; the replays kept stand (the
    # engine's facts of a match are the same).
    summary.refresh_all(op.get_bind(), keep_replays=False)


def downgrade():
    with op.batch_alter_table("seat_summaries", schema=None) as batch:
        batch.drop_column("place")
    with op.batch_alter_table("matches", schema=None) as batch:
        batch.drop_column("teams")
