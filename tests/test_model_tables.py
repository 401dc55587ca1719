"""A table's traits (temporary, origin, annotations, view stand-in, bare name) live in one shared
record (`linter.schema.model._Traits`): tenant copies of a table, hundreds of thousands in a large
dump, hold a reference each instead of five fields. Sharing must never let a change to one table
show on another, and a copy is an ordinary table (no temporary, no stand-in)."""

from __future__ import annotations

from linter.parse.body import TableBody
from linter.parse.elements import Location
from linter.schema.model import AS_BODY, Table


def _table(name: str, **traits: object) -> Table:
    where = Location("t.sql", 3)
    return Table("app", name, TableBody(), where, where, **traits)  # type: ignore[arg-type]


def test_copies_share_the_traits_and_a_rename_changes_one_table_only() -> None:
    template = _table("orders", annotations=frozenset({"insert-heavy"}), bare_name=True)
    copies = [template.copy_in(f"tenant_{i}", 10 * i, AS_BODY) for i in range(1, 4)]
    assert all(c._traits is template._traits for c in copies)
    assert [c.annotations for c in copies] == [frozenset({"insert-heavy"})] * 3
    copies[1].bare_name = False  # RENAME TABLE ... TO `orders2`, written quoted, in one tenant
    assert [c.bare_name for c in copies] == [True, False, True] and template.bare_name is True
    assert copies[1].annotations == frozenset({"insert-heavy"}) and copies[1].origin == "create"
    assert copies[1] != copies[0] and copies[0] == copies[2].copy_in("tenant_1", 10, AS_BODY)


def test_tables_created_alike_share_one_record_and_differ_where_they_differ() -> None:
    a, b = _table("a"), _table("b")
    assert a._traits is b._traits
    temporary = _table("scratch", temporary=True, origin="select")
    standin = _table("v", view_standin=True)
    assert (temporary.temporary, temporary.origin, temporary.view_standin) == (True, "select", False)
    assert (standin.temporary, standin.view_standin, a.temporary, a.view_standin) == (False, True, False, False)
    copy = standin.copy_in("tenant_1", 5, AS_BODY)  # a copy is a real table
    assert (copy.view_standin, copy.temporary, standin.view_standin) == (False, False, True)
    assert "temporary=True" in repr(temporary) and "origin='select'" in repr(temporary)
