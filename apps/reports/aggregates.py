"""SQL pieces the reports need that Django does not ship: the seconds between two timestamps and
a percentile aggregate. Both run in the database, on PostgreSQL and on the embedded SQLite (where
the percentile is a small aggregate registered on the connection, as Django registers its own)."""

import math
from typing import Any

from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Aggregate, FloatField, Func
from django.db.models.expressions import Combinable
from django.db.models.sql.compiler import SQLCompiler

Sql = tuple[str, tuple[str | int, ...]]  # a compiled expression and its parameters


class SecondsBetween(Func):
    """`end - start` in seconds (float); NULL when either is NULL."""

    output_field = FloatField()
    template = "EXTRACT(EPOCH FROM (%(expressions)s))::float8"
    arg_joiner = " - "

    def __init__(self, start: Combinable, end: Combinable) -> None:
        super().__init__(end, start)  # rendered "end - start"

    def as_sqlite(self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra_context: Any) -> Sql:
        end, start = (compiler.compile(expression) for expression in self.get_source_expressions())
        return f"((julianday({end[0]}) - julianday({start[0]})) * 86400.0)", (*end[1], *start[1])


class Percentile(Aggregate):
    """The continuous percentile `fraction` (0..1) of the non-NULL values, like PostgreSQL's
    `percentile_cont(fraction) WITHIN GROUP (ORDER BY value)`."""

    function = "percentile_cont"
    name = "Percentile"
    output_field = FloatField()
    allow_distinct = False

    def __init__(self, expression: Combinable, fraction: float, **extra: Any) -> None:
        if not 0 <= fraction <= 1:
            raise ValueError("fraction must be within 0..1")
        self.fraction = float(fraction)
        super().__init__(expression, **extra)
        self.template = f"%(function)s({self.fraction!r}) WITHIN GROUP (ORDER BY %(expressions)s)"

    def as_sqlite(self, compiler: SQLCompiler, connection: BaseDatabaseWrapper, **extra_context: Any) -> Sql:
        connection.connection.create_aggregate("reports_percentile", 2, _SqlitePercentile)
        return self.as_sql(
            compiler,
            connection,
            function="reports_percentile",
            template=f"%(function)s(%(expressions)s, {self.fraction!r})",
            **extra_context,
        )


class _SqlitePercentile:
    """percentile_cont for SQLite: linear interpolation between the closest ranks."""

    def __init__(self) -> None:
        self.values: list[float] = []
        self.fraction = 0.5

    def step(self, value: float | None, fraction: float) -> None:
        self.fraction = fraction
        if value is not None:
            self.values.append(float(value))

    def finalize(self) -> float | None:
        if not self.values:
            return None
        ordered = sorted(self.values)
        position = self.fraction * (len(ordered) - 1)
        low, high = math.floor(position), math.ceil(position)
        return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
