"""The engine's state after a match's last round, kept with its summary (a save plays the
next round on it instead of replaying the whole match).

Written by hand.  Nothing is filled here: a match without a kept state is replayed once
by the next write that rewrites its summary, which keeps it from then on.

Revision ID: 0010_replay
Revises: 0009_indian_web
Create Date: 2026-12-02 03:10:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0010_replay'
down_revision = '0009_indian_web'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'match_replays',
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('replay_key', sa.String(length=64), nullable=False),
        sa.Column('facts', sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ['match_id'], ['matches.id'],
            name=op.f('fk_match_replays_match_id_matches'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('match_id', name=op.f('pk_match_replays')),
    )


def downgrade():
    op.drop_table('match_replays')
