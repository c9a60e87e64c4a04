"""A match the players ended ("stopped": Indian rummy played for points, with no fixed end).

Written by hand.  ``matches.stopped`` is false for every stored match.

Revision ID: 0009_indian_web
Revises: 0008_house_rules
Create Date: 2026-12-02 01:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0009_indian_web'
down_revision = '0008_house_rules'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('matches') as batch:
        batch.add_column(
            sa.Column('stopped', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('stopped')
