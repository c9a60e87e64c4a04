"""The settings every server of one database shares: the secret that signs the forms.

Revision ID: 0019_settings
Revises: 0018_receipts
Create Date: 2026-12-06 19:40:00
"""

import sqlalchemy as sa
from alembic import op


revision = "0019_settings"
down_revision = "0018_receipts"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "stored_settings",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_stored_settings")),
    )


def downgrade():
    op.drop_table("stored_settings")
