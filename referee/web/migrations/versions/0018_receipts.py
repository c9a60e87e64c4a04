"""A write's receipt keeps what the write was (its operation, its target and a digest of
its body), so that its one-time key answers only that write.

Revision ID: 0018_receipts
Revises: 0017_servers
Create Date: 2026-12-06 19:40:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0018_receipts"
down_revision = "0017_servers"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("write_receipts") as batch:
        batch.add_column(sa.Column("operation", sa.String(120), nullable=True))
        batch.add_column(sa.Column("target", sa.String(400), nullable=True))
        batch.add_column(sa.Column("digest", sa.String(64), nullable=True))


def downgrade():
    with op.batch_alter_table("write_receipts") as batch:
        batch.drop_column("digest")
        batch.drop_column("target")
        batch.drop_column("operation")
