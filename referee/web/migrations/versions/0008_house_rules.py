"""A table's own named sets of house rules ("our house rules").

Written by hand.  ``house_rules`` holds one row per named set of a table: the
ruleset and its options (a ``referee-match/1`` options object, checked by the
engine when saved), with a ``version`` that every edit raises.  A new table:
no stored row changes.

Revision ID: 0008_house_rules
Revises: 0007_keys
Create Date: 2026-12-08 10:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0008_house_rules'
down_revision = '0007_keys'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'house_rules',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('rules', sa.String(length=40), nullable=False),
        sa.Column('options', sa.JSON(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('version', sa.Integer(), server_default='1', nullable=False),
        sa.ForeignKeyConstraint(
            ['table_id'], ['card_tables.id'], name='fk_house_rules_table_id_card_tables',
            ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('id', name='pk_house_rules'),
        sa.UniqueConstraint('table_id', 'name', name='uq_house_rules_table_id'),
    )
    with op.batch_alter_table('house_rules', schema=None) as batch_op:
        batch_op.create_index('ix_house_rules_table_id', ['table_id'], unique=False)


def downgrade():
    with op.batch_alter_table('house_rules', schema=None) as batch_op:
        batch_op.drop_index('ix_house_rules_table_id')
    op.drop_table('house_rules')
