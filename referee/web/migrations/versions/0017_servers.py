"""The servers serving the database (a heartbeat per server, so a restore is refused while
any of them serves, wherever it runs), and the database's generation (a random value made
now and again by every restore, part of the keys of what is kept per match version).

Revision ID: 0017_servers
Revises: 0016_savealone
Create Date: 2026-12-06 19:40:00
"""

import secrets

import sqlalchemy as sa
from alembic import op


revision = "0017_servers"
down_revision = "0016_savealone"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "serving_servers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_serving_servers")),
        sa.UniqueConstraint("host", "pid", name=op.f("uq_serving_servers_host")),
    )
    op.create_index(op.f("ix_serving_servers_seen_at"), "serving_servers", ["seen_at"])
    identity = op.create_table(
        "database_identity",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("generation", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_database_identity")),
    )
    op.bulk_insert(identity, [{"id": 1, "generation": secrets.token_hex(16)}])


def downgrade():
    op.drop_table("database_identity")
    op.drop_index(op.f("ix_serving_servers_seen_at"), table_name="serving_servers")
    op.drop_table("serving_servers")
