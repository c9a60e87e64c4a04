"""Versions on matches and rounds (optimistic locking) and the receipts of one-time writes.

Written by hand: the two ``version`` columns start at 1 for rows that exist;
``write_receipts`` remembers the one-time token of each form that created
something, so a repeated request is answered with what the first one made.

Revision ID: 0002_versions
Revises: 0001_initial
Create Date: 2026-12-01 10:40:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0002_versions'
down_revision = '0001_initial'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='1', nullable=False))
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='1', nullable=False))
    op.create_table('write_receipts',
    sa.Column('token', sa.String(length=64), nullable=False),
    sa.Column('location', sa.String(length=400), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('token', name=op.f('pk_write_receipts'))
    )
    with op.batch_alter_table('write_receipts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_write_receipts_created_at'), ['created_at'], unique=False)


def downgrade():
    with op.batch_alter_table('write_receipts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_write_receipts_created_at'))
    op.drop_table('write_receipts')
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('version')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_column('version')
