"""The state kept with a match a round at a time: each round's facts with the round
(``rounds.facts``), and in ``match_replays.facts`` only what does not grow with the match, so
that a save writes its own round's facts instead of every round's again.

Written by hand.  The states kept so far (all their facts in ``match_replays``) are split
here: each complete round not deleted, in order, gets its facts and the totals after it
(``totals_after``, when it counted); the state keeps the rest and the number of its rounds
(``round_count``).  A state whose rounds are not those of its match is removed (the next write
of that match keeps it again).  The downgrade joins them back.  The form is the engine's
(``MatchState.facts(rounds=False)``, ``MatchState.round_facts``, ``joined_facts``), written
out here so that this revision stays as it is when the engine changes.

Revision ID: 0015_roundfacts
Revises: 0014_ratings
Create Date: 2026-12-02 09:00:00
"""
import json

from alembic import op
import sqlalchemy as sa


revision = '0015_roundfacts'
down_revision = '0014_ratings'
branch_labels = None
depends_on = None

BATCH = 500

replays = sa.table(
    'match_replays', sa.column('match_id', sa.Integer), sa.column('facts', sa.Text)
)
rounds = sa.table(
    'rounds',
    sa.column('id', sa.Integer),
    sa.column('match_id', sa.Integer),
    sa.column('number', sa.Integer),
    sa.column('complete', sa.Boolean),
    sa.column('deleted_at', sa.DateTime(timezone=True)),
    sa.column('facts', sa.Text),
)


def _text(facts):
    return json.dumps(facts, ensure_ascii=False, separators=(',', ':'))


def _split(whole, count):
    """The state's own facts and its rounds' (None: not the facts of ``count`` rounds)."""
    if not isinstance(whole, dict) or 'round_count' in whole:
        return None
    results, history = whole.get('rounds'), whole.get('history')
    if not isinstance(results, list) or not isinstance(history, list) or len(results) != count:
        return None
    counted = [result for result in results if result.get('outcome') != 'void']
    if len(counted) != len(history):
        return None
    after = iter(history)
    split_rounds = [
        result if result.get('outcome') == 'void' else result | {'totals_after': next(after)}
        for result in results
    ]
    own = {'round_count': len(results)} | {
        name: value for name, value in whole.items() if name not in ('rounds', 'history')
    }
    return own, split_rounds


def _joined(own, split_rounds):
    """All the facts of a state from its own and its rounds' (None: they do not fit)."""
    if not isinstance(own, dict) or own.get('round_count') != len(split_rounds):
        return None
    if any(not isinstance(result, dict) for result in split_rounds):
        return None
    whole = {name: value for name, value in own.items() if name != 'round_count'}
    whole['rounds'] = [
        {name: value for name, value in result.items() if name != 'totals_after'}
        for result in split_rounds
    ]
    whole['history'] = [result['totals_after'] for result in split_rounds if 'totals_after' in result]
    return whole


def _kept_rounds(connection, match_ids):
    """The complete rounds not deleted of these matches, in order: (id, facts) per match."""
    found = {match_id: [] for match_id in match_ids}
    rows = connection.execute(
        sa.select(rounds.c.id, rounds.c.match_id, rounds.c.facts)
        .where(
            rounds.c.match_id.in_(match_ids),
            rounds.c.complete.is_(True),
            rounds.c.deleted_at.is_(None),
        )
        .order_by(rounds.c.match_id, rounds.c.number)
    )
    for row in rows:
        found[row.match_id].append((row.id, row.facts))
    return found


def _batches(connection):
    ids = connection.execute(
        sa.select(replays.c.match_id).order_by(replays.c.match_id)
    ).scalars().all()
    for start in range(0, len(ids), BATCH):
        batch = ids[start:start + BATCH]
        kept = dict(
            connection.execute(
                sa.select(replays.c.match_id, replays.c.facts).where(
                    replays.c.match_id.in_(batch)
                )
            ).all()
        )
        yield kept, _kept_rounds(connection, batch)


def _rewrite(connection, states, round_facts, removed):
    if round_facts:
        connection.execute(
            sa.update(rounds)
            .where(rounds.c.id == sa.bindparam('the_round'))
            .values(facts=sa.bindparam('new_facts')),
            round_facts,
        )
    if states:
        connection.execute(
            sa.update(replays)
            .where(replays.c.match_id == sa.bindparam('the_match'))
            .values(facts=sa.bindparam('new_facts')),
            states,
        )
    if removed:
        connection.execute(sa.delete(replays).where(replays.c.match_id.in_(removed)))


def upgrade():
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.add_column(sa.Column('facts', sa.Text(), nullable=True))
    connection = op.get_bind()
    for kept, stored in _batches(connection):
        states, round_facts, removed = [], [], []
        for match_id, text in kept.items():
            try:
                split = _split(json.loads(text), len(stored[match_id]))
            except (AttributeError, TypeError, ValueError):
                split = None
            if split is None:
                removed.append(match_id)
                continue
            own, split_rounds = split
            states.append({'the_match': match_id, 'new_facts': _text(own)})
            round_facts += [
                {'the_round': round_id, 'new_facts': _text(facts)}
                for (round_id, _old), facts in zip(stored[match_id], split_rounds, strict=True)
            ]
        _rewrite(connection, states, round_facts, removed)


def downgrade():
    connection = op.get_bind()
    for kept, stored in _batches(connection):
        states, removed = [], []
        for match_id, text in kept.items():
            texts = [facts for _id, facts in stored[match_id]]
            own = joined = None
            try:
                own = json.loads(text)
                if None not in texts:
                    joined = _joined(own, [json.loads(facts) for facts in texts])
            except (AttributeError, TypeError, ValueError):
                joined = None
            if isinstance(own, dict) and 'round_count' not in own and 'rounds' in own:
                continue  # kept whole already
            if joined is None:
                removed.append(match_id)
            else:
                states.append({'the_match': match_id, 'new_facts': _text(joined)})
        _rewrite(connection, states, [], removed)
    with op.batch_alter_table('rounds', schema=None) as batch_op:
        batch_op.drop_column('facts')
