"""Card tables, players, matches (players in seat order) and rounds as entered.

Generated with ``flask db migrate`` and reviewed by hand: constraint names come
from the naming convention in ``referee/web/store/extensions.py``; the boolean
default is ``sa.true()`` so that it works on PostgreSQL as well as SQLite.

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-30 08:53:06
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0001_initial'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('card_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('edit_key', sa.String(length=64), nullable=False),
    sa.Column('view_key', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_card_tables')),
    sa.UniqueConstraint('edit_key', name=op.f('uq_card_tables_edit_key')),
    sa.UniqueConstraint('view_key', name=op.f('uq_card_tables_view_key'))
    )
    op.create_table('matches',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('rules', sa.String(length=40), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('first_dealer', sa.String(length=40), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_matches_table_id_card_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_matches'))
    )
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_matches_table_id'), ['table_id'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_players_table_id_card_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('table_id', 'name', name=op.f('uq_players_table_id'))
    )
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_players_table_id'), ['table_id'], unique=False)

    op.create_table('match_players',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_match_players_match_id_matches')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_match_players_player_id_players')),
    sa.PrimaryKeyConstraint('match_id', 'seat', name=op.f('pk_match_players')),
    sa.UniqueConstraint('match_id', 'player_id', name=op.f('uq_match_players_match_id'))
    )
    with op.batch_alter_table('match_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_match_players_player_id'), ['player_id'], unique=False)

    op.create_table('rounds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('entry', sa.JSON(), nullable=False),
    sa.Column('previous_entry', sa.JSON(), nullable=True),
    sa.Column('complete', sa.Boolean(), server_default=sa.true(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_rounds_match_id_matches')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_rounds')),
    sa.UniqueConstraint('match_id', 'number', name=op.f('uq_rounds_match_id'))
    )
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_rounds_match_id'), ['match_id'], unique=False)



def downgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_rounds_match_id'))

    op.drop_table('rounds')
    with op.batch_alter_table('match_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_match_players_player_id'))

    op.drop_table('match_players')
    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_players_table_id'))

    op.drop_table('players')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_matches_table_id'))

    op.drop_table('matches')
    op.drop_table('card_tables')
