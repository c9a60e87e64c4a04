"""The summaries kept with every match (the match list and the statistics), filled from the log.

Written by hand.  ``match_summaries`` has one row per match, ``seat_summaries``
one per player and match, ``player_totals`` one per player and ruleset at a
table (the sums of their seat rows); all are derived from the rounds as entered
by ``referee.web.store.summary``, which this revision runs once over the matches already
stored (the app keeps them up to date from then on).  A later revision that
changes these tables must run the backfill again (``flask history check --fix``).

It comes after ``0004_evening``: the summaries leave out deleted rounds and
matches and mark archived ones, so the backfill reads the columns that revision adds.

Revision ID: 0005_history
Revises: 0004_evening
Create Date: 2026-12-02 09:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0005_history'
down_revision = '0004_evening'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('match_summaries',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('rules', sa.String(length=40), nullable=False),
    sa.Column('state', sa.String(length=10), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('rounds_played', sa.Integer(), nullable=False),
    sa.Column('last_played_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('archived', sa.Boolean(), nullable=False),
    sa.Column('deleted', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_match_summaries_match_id_matches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_match_summaries_table_id_card_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', name=op.f('pk_match_summaries'))
    )
    with op.batch_alter_table('match_summaries', schema=None) as batch_op:
        batch_op.create_index('ix_match_summaries_listing', ['table_id', 'last_played_at', 'match_id', 'rules', 'state', 'rounds_played', 'archived', 'deleted'], unique=False)
        batch_op.create_index('ix_match_summaries_archived', ['table_id', 'archived', 'deleted'], unique=False)

    op.create_table('seat_summaries',
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('rules', sa.String(length=40), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('counted', sa.Boolean(), nullable=False),
    sa.Column('finished', sa.Boolean(), nullable=False),
    sa.Column('won', sa.Boolean(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('rounds_won', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('points_won', sa.Integer(), nullable=False),
    sa.Column('best_round', sa.Integer(), nullable=True),
    sa.Column('best_round_number', sa.Integer(), nullable=True),
    sa.Column('at_once', sa.Integer(), nullable=False),
    sa.Column('knocks', sa.Integer(), nullable=False),
    sa.Column('gins', sa.Integer(), nullable=False),
    sa.Column('gins_against', sa.Integer(), nullable=False),
    sa.Column('undercuts', sa.Integer(), nullable=False),
    sa.Column('undercuts_against', sa.Integer(), nullable=False),
    sa.Column('last_played_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['match_summaries.match_id'], name=op.f('fk_seat_summaries_match_id_match_summaries'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_seat_summaries_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_seat_summaries_table_id_card_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('match_id', 'player_id', name=op.f('pk_seat_summaries'))
    )
    with op.batch_alter_table('seat_summaries', schema=None) as batch_op:
        # Covers every statistics query: they read the index alone, never the table.
        batch_op.create_index('ix_seat_summaries_figures', ['table_id', 'player_id', 'rules', 'best_round', 'counted', 'finished', 'won', 'total', 'rounds', 'rounds_won', 'points', 'points_won', 'at_once', 'knocks', 'gins', 'gins_against', 'undercuts', 'undercuts_against', 'last_played_at', 'match_id', 'best_round_number'], unique=False)

    op.create_table('player_totals',
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('rules', sa.String(length=40), nullable=False),
    sa.Column('matches', sa.Integer(), nullable=False),
    sa.Column('finished', sa.Integer(), nullable=False),
    sa.Column('won', sa.Integer(), nullable=False),
    sa.Column('rounds', sa.Integer(), nullable=False),
    sa.Column('rounds_won', sa.Integer(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('points_won', sa.Integer(), nullable=False),
    sa.Column('at_once', sa.Integer(), nullable=False),
    sa.Column('knocks', sa.Integer(), nullable=False),
    sa.Column('gins', sa.Integer(), nullable=False),
    sa.Column('gins_against', sa.Integer(), nullable=False),
    sa.Column('undercuts', sa.Integer(), nullable=False),
    sa.Column('undercuts_against', sa.Integer(), nullable=False),
    sa.Column('best_round', sa.Integer(), nullable=True),
    sa.Column('last_played_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_player_totals_player_id_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['card_tables.id'], name=op.f('fk_player_totals_table_id_card_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', 'player_id', 'rules', name=op.f('pk_player_totals'))
    )

    from referee.web.store.summary import refresh_all

    refresh_all(op.get_bind())


def downgrade():
    op.drop_table('player_totals')
    with op.batch_alter_table('seat_summaries', schema=None) as batch_op:
        batch_op.drop_index('ix_seat_summaries_figures')
    op.drop_table('seat_summaries')
    with op.batch_alter_table('match_summaries', schema=None) as batch_op:
        batch_op.drop_index('ix_match_summaries_archived')
        batch_op.drop_index('ix_match_summaries_listing')
    op.drop_table('match_summaries')
