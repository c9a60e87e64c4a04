"""The ratings kept incrementally: each table's ratings epoch (raised, with the order key it
applies from, when a rewrite of its summaries changes a rated match other than by adding
one after all the others), on the statistics version's row.

Written by hand.  Nothing to fill: a worker that starts works the ratings out once.

Revision ID: 0014_ratings
Revises: 0013_aggregates
Create Date: 2026-12-02 08:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0014_ratings'
down_revision = '0013_aggregates'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('statistics_versions') as batch:
        batch.add_column(
            sa.Column('ratings_epoch', sa.Integer(), server_default='0', nullable=False)
        )
        batch.add_column(
            sa.Column('ratings_from_played_at', sa.DateTime(timezone=True), nullable=True)
        )
        batch.add_column(sa.Column('ratings_from_match', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('statistics_versions') as batch:
        batch.drop_column('ratings_from_match')
        batch.drop_column('ratings_from_played_at')
        batch.drop_column('ratings_epoch')
