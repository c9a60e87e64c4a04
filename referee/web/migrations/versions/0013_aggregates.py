"""The statistics' aggregates by month (player, pair of players, table), and three figures per
seat that were counted by replaying every match (went out, discards bought, contracts made);
each table's statistics version (raised with every rewrite of its summaries).

Written by hand.  Filled here for the matches already stored: the rummy500 and contract
matches (the only ones with the three figures) are summarised again from a whole replay,
which also keeps their replay with the facts those figures need, then every table's
aggregates are counted from the summaries (``referee.web.store.aggregates``).  A later
revision that changes these tables must fill them again (``flask history check --fix``).

Revision ID: 0012_aggregates
Revises: 0011_tablemove
Create Date: 2026-12-02 06:00:00
"""
from alembic import op
import sqlalchemy as sa


revision = '0013_aggregates'
down_revision = '0012_apisave'
branch_labels = None
depends_on = None

SUMMED = (
    'matches', 'finished', 'won', 'rounds', 'rounds_won', 'points', 'points_won', 'at_once',
    'knocks', 'gins', 'gins_against', 'undercuts', 'undercuts_against', 'went_out', 'buys',
    'contracts',
)


def _owned(table):
    return [
        sa.ForeignKeyConstraint(
            ['table_id'], ['card_tables.id'],
            name=op.f(f'fk_{table}_table_id_card_tables'), ondelete='CASCADE',
        ),
        sa.ForeignKeyConstraint(
            ['player_id'], ['players.id'],
            name=op.f(f'fk_{table}_player_id_players'), ondelete='CASCADE',
        ),
    ]


def upgrade():
    with op.batch_alter_table('seat_summaries', schema=None) as batch_op:
        for name in ('went_out', 'buys', 'contracts'):
            batch_op.add_column(sa.Column(name, sa.Integer(), server_default='0', nullable=False))
        batch_op.create_index(
            'ix_seat_summaries_played', ['table_id', 'player_id', 'last_played_at'], unique=False
        )
        batch_op.create_index(
            'ix_seat_summaries_table_played', ['table_id', 'last_played_at'], unique=False
        )
    with op.batch_alter_table('match_summaries', schema=None) as batch_op:
        batch_op.create_index(
            'ix_match_summaries_rules', ['table_id', 'rules', 'last_played_at'], unique=False
        )
    op.create_table(
        'player_months',
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('rules', sa.String(length=40), nullable=False),
        sa.Column('month', sa.String(length=7), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in SUMMED),
        sa.Column('best_round', sa.Integer(), nullable=True),
        sa.Column('last_played_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('streak_matches', sa.Integer(), nullable=False),
        sa.Column('streak_first', sa.Integer(), nullable=False),
        sa.Column('streak_last', sa.Integer(), nullable=False),
        sa.Column('streak_longest', sa.Integer(), nullable=False),
        *_owned('player_months'),
        sa.PrimaryKeyConstraint(
            'table_id', 'player_id', 'rules', 'month', name=op.f('pk_player_months')
        ),
    )
    op.create_table(
        'pair_months',
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('player_id', sa.Integer(), nullable=False),
        sa.Column('other_id', sa.Integer(), nullable=False),
        sa.Column('rules', sa.String(length=40), nullable=False),
        sa.Column('month', sa.String(length=7), nullable=False),
        *(
            sa.Column(name, sa.Integer(), nullable=False)
            for name in (
                'matches', 'finished', 'won', 'other_won', 'ahead', 'other_ahead',
                'rounds_won', 'other_rounds_won', 'points', 'other_points',
            )
        ),
        *_owned('pair_months'),
        sa.ForeignKeyConstraint(
            ['other_id'], ['players.id'],
            name=op.f('fk_pair_months_other_id_players'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint(
            'table_id', 'player_id', 'other_id', 'rules', 'month', name=op.f('pk_pair_months')
        ),
    )
    op.create_table(
        'table_months',
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('rules', sa.String(length=40), nullable=False),
        sa.Column('month', sa.String(length=7), nullable=False),
        sa.Column('matches', sa.Integer(), nullable=False),
        sa.Column('finished', sa.Integer(), nullable=False),
        sa.Column('broken', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ['table_id'], ['card_tables.id'],
            name=op.f('fk_table_months_table_id_card_tables'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('table_id', 'rules', 'month', name=op.f('pk_table_months')),
    )
    op.create_table(
        'statistics_versions',
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ['table_id'], ['card_tables.id'],
            name=op.f('fk_statistics_versions_table_id_card_tables'), ondelete='CASCADE',
        ),
        sa.PrimaryKeyConstraint('table_id', name=op.f('pk_statistics_versions')),
    )
    _fill(op.get_bind())


def _fill(connection):
    from referee.rulesets import RULESETS
    from referee.web.store import aggregates, summary

    on_table = sorted(name for name, rules in RULESETS.items() if rules.round_form.table)
    matches = summary.MATCHES
    ids = connection.execute(
        sa.select(matches.c.id).where(matches.c.rules.in_(on_table)).order_by(matches.c.id)
    ).scalars().all()
    for match_id in ids:
        log = summary.read_log(connection, match_id)
        derived = summary.derive(log) if log is not None else None
        summary.write(connection, match_id, derived, totals=False)
    aggregates.rebuild(connection)


def downgrade():
    op.drop_table('statistics_versions')
    op.drop_table('table_months')
    op.drop_table('pair_months')
    op.drop_table('player_months')
    with op.batch_alter_table('match_summaries', schema=None) as batch_op:
        batch_op.drop_index('ix_match_summaries_rules')
    with op.batch_alter_table('seat_summaries', schema=None) as batch_op:
        batch_op.drop_index('ix_seat_summaries_table_played')
        batch_op.drop_index('ix_seat_summaries_played')
        for name in ('contracts', 'buys', 'went_out'):
            batch_op.drop_column(name)
