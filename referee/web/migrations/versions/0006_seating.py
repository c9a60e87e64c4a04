"""Players who join or leave a match between rounds.

Written by hand.  ``matches.seating_changes`` holds the match file's
``seating_changes`` (a list of ``{"before_round": N, "players": [...]}``, NULL
while the seating never changed); ``match_players.joined_round`` is the round
before which a player who was not seated in round 1 first joined (NULL for
round 1's players, who make the header's ``players``).  Both start NULL: no
stored match changes, and the summaries need no backfill.

Revision ID: 0006_seating
Revises: 0005_history
Create Date: 2026-12-01 14:10:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0006_seating'
down_revision = '0005_history'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('seating_changes', sa.JSON(), nullable=True))
    with op.batch_alter_table('match_players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('joined_round', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('match_players', schema=None) as batch_op:
        batch_op.drop_column('joined_round')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('seating_changes')
