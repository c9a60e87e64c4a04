"""Soft deletes and the audit trail of round changes; archived and deleted matches.

Written by hand.  ``rounds.deleted_at`` keeps a deleted last round restorable
until another round takes its number; ``round_changes`` is the audit trail
(the round's id becomes NULL when a round is gone for good, its number stays);
``matches.archived_at`` hides a match from the list, ``matches.deleted_at``
keeps a deleted match restorable for 30 days.  All new columns are nullable:
rows that exist are neither deleted nor archived.

Revision ID: 0004_evening
Revises: 0002_versions
Create Date: 2026-12-03 19:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0004_evening'
down_revision = '0002_versions'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('archived_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f('ix_matches_deleted_at'), ['deleted_at'], unique=False)
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('deleted_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table('round_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=True),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('changed_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('what', sa.String(length=16), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.Column('via', sa.String(length=8), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_round_changes_match_id_matches')),
    sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], name=op.f('fk_round_changes_round_id_rounds'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round_changes'))
    )
    with op.batch_alter_table('round_changes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_changes_match_id'), ['match_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_round_changes_round_id'), ['round_id'], unique=False)


def downgrade():
    with op.batch_alter_table('round_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_changes_round_id'))
        batch_op.drop_index(batch_op.f('ix_round_changes_match_id'))
    op.drop_table('round_changes')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('deleted_at')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_matches_deleted_at'))
        batch_op.drop_column('deleted_at')
        batch_op.drop_column('archived_at')
