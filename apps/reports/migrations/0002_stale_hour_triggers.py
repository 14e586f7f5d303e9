"""PostgreSQL triggers that mark an owner's hour stale in the transaction of any change to what
the sessions report counts (sessions, orders, lines, refunds, assignments, offers), whoever makes
it: services, bulk loads, the admin. One row per statement and hour (statement-level triggers
over transition tables), so a bulk load marks each hour once; the sessions already there are
marked once, here. Elsewhere (SQLite) nothing: the rollup is PostgreSQL's fast path only
(apps/reports/rollup.py)."""

from django.db import migrations

SESSION = "agent_sessions_session"
# table: the join from its changed rows `r` to their session `s`
PATHS = {
    SESSION: "",
    "agent_sessions_offer": f"JOIN {SESSION} s ON s.id = r.session_id",
    "agent_sessions_assignment": f"JOIN {SESSION} s ON s.id = r.session_id",
    "orders_order": f"JOIN {SESSION} s ON s.id = r.session_id",
    "orders_orderline": f"JOIN orders_order o ON o.id = r.order_id JOIN {SESSION} s ON s.id = o.session_id",
    "billing_refund": f"JOIN orders_order o ON o.id = r.order_id JOIN {SESSION} s ON s.id = o.session_id",
}
EVENTS = {"insert": ("new_rows",), "update": ("new_rows", "old_rows"), "delete": ("old_rows",)}


def _hours(table: str, rows: str) -> str:
    alias = "r" if table == SESSION else "s"
    return (
        f"SELECT DISTINCT {alias}.owner_id, date_trunc('hour', {alias}.created_at, 'UTC') FROM {rows} r {PATHS[table]}"
    )


def _forward() -> list[str]:
    statements = []
    for table in PATHS:
        for event, tables in EVENTS.items():
            name = f"reports_stale_{table}_{event}"
            union = " UNION ".join(_hours(table, rows) for rows in tables)
            referencing = " ".join(f"{'NEW' if rows == 'new_rows' else 'OLD'} TABLE AS {rows}" for rows in tables)
            statements.append(
                f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"INSERT INTO reports_stalehour (owner_id, hour) {union}; RETURN NULL; END $$;"
            )
            statements.append(
                f"CREATE TRIGGER {name} AFTER {event.upper()} ON {table} REFERENCING {referencing} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {name}();"
            )
    return statements


def _backward() -> list[str]:
    statements = []
    for table in PATHS:
        for event in EVENTS:
            name = f"reports_stale_{table}_{event}"
            statements += [f"DROP TRIGGER IF EXISTS {name} ON {table};", f"DROP FUNCTION IF EXISTS {name}();"]
    return statements


# A database that already holds sessions (an upgrade) has every hour of them stale at first, so
# the rollup counts the history before it answers a long report (it would under-count otherwise).
HISTORY = (
    f"INSERT INTO reports_stalehour (owner_id, hour) "
    f"SELECT DISTINCT owner_id, date_trunc('hour', created_at, 'UTC') FROM {SESSION};"
)


def create_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in _forward():
            schema_editor.execute(statement)
        schema_editor.execute(HISTORY)


def drop_triggers(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for statement in _backward():
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0001_rollup_and_breaks"),
        ("agent_sessions", "0006_session_report_covering_index"),
        ("orders", "0004_order_receipt_token"),
        ("billing", "0005_payment_failure_code"),
    ]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
