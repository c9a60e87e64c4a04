"""The match's version kept with its replayed state (a save that finds the state kept at the
match's current version takes it without reading and hashing every round), and the keys of
the replays made as a chain (the key of one more round comes from the last key).

Written by hand.  The states kept so far have keys of the old kind and no version: they are
removed, and the next write of each match keeps its state again (replayed once).

Revision ID: 0012_apisave
Revises: 0011_tablemove
Create Date: 2026-12-02 05:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0012_apisave'
down_revision = '0011_tablemove'
branch_labels = None
depends_on = None


def upgrade():
    op.execute(sa.text('DELETE FROM match_replays'))
    with op.batch_alter_table('match_replays') as batch:
        batch.add_column(sa.Column('match_version', sa.Integer(), nullable=True))


def downgrade():
    op.execute(sa.text('DELETE FROM match_replays'))
    with op.batch_alter_table('match_replays') as batch:
        batch.drop_column('match_version')
