"""PostgreSQL: the check that lets a plain save commit as one statement of its own
(``referee_moved_all``): it raises SQLSTATE RR001 when a figure the save moves in place was
not there, which undoes the whole statement, and the app then saves the round again in a
transaction that counts what was missing (``store/work.py``).

Written by hand.  SQLite has nothing to add: its save is a transaction of several statements.

Revision ID: 0016_savealone
Revises: 0015_roundfacts
Create Date: 2026-12-02 12:30:00
"""

from alembic import op


revision = "0016_savealone"
down_revision = "0015_roundfacts"
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        """
        CREATE OR REPLACE FUNCTION referee_moved_all(complete boolean) RETURNS boolean
        LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            IF complete IS NOT TRUE THEN
                RAISE EXCEPTION 'a figure the save moves in place is missing'
                    USING ERRCODE = 'RR001';
            END IF;
            RETURN true;
        END
        $$
        """
    )


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP FUNCTION IF EXISTS referee_moved_all(boolean)")
