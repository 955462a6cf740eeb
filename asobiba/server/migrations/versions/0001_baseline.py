"""Baseline: the schema of the platform as it was when migrations began.

On an empty database it creates every table; on a database made before migrations existed
(the same tables, no ``alembic_version``) it creates only what is missing and changes no row.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

from alembic import op

from asobiba.server.schema import metadata

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    metadata().create_all(bind, checkfirst=True)


def downgrade() -> None:
    raise NotImplementedError("the baseline is not downgraded: it would drop every table")
