"""An imported match's fingerprint, once per table: the same document imported twice is one match.

Written by hand.  Every stored match has none (a match set up in the app, or imported before).

Revision ID: 0011_tablemove
Revises: 0010_replay
Create Date: 2026-12-02 03:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0011_tablemove'
down_revision = '0010_replay'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('fingerprint', sa.String(length=64), nullable=True))
        batch.create_unique_constraint('uq_matches_table_id', ['table_id', 'fingerprint'])


def downgrade():
    with op.batch_alter_table('matches') as batch:
        batch.drop_constraint('uq_matches_table_id', type_='unique')
        batch.drop_column('fingerprint')
