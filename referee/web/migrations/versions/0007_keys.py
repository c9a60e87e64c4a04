"""A table's own history: its links replaced (when, from which link; never the keys).

Written by hand.  ``table_events`` starts empty: no stored table changes.

Revision ID: 0007_keys
Revises: 0006_seating
Create Date: 2026-12-08 10:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0007_keys'
down_revision = '0006_seating'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'table_events',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('happened_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('what', sa.String(length=24), nullable=False),
        sa.Column('via', sa.String(length=8), nullable=False),
        sa.ForeignKeyConstraint(
            ['table_id'], ['card_tables.id'], name=op.f('fk_table_events_table_id_card_tables')
        ),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_table_events')),
    )
    with op.batch_alter_table('table_events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_table_events_table_id'), ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('table_events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_table_events_table_id'))
    op.drop_table('table_events')
