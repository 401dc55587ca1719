"""The corpus bar for uuid-primary-key and link-table-primary-key: the real CLI on ../shared/corpus,
scored by the shared tool against the hand-checked LABELS.json.

Bar (issue 3): uuid-primary-key recall >= 0.95 and precision >= 0.90; link-table-primary-key
recall >= 0.90 and precision >= 0.90 (the scorer counts findings of any severity).

Where the checks and the labels part ways, and why (the file wins over the label):

- zencart/mysql_zencart.sql `coupon_restrict` (labelled not a link table; NOT flagged since
  issue 15): coupon_id, product_id and category_id point at coupons, products and categories,
  but product_id and category_id both default to 0 and no key covers the three: a row restricts
  a coupon to a product OR a category (the other 0), an exclusive arc rather than a triple, so
  the check leaves it alone (it was flagged before, as a triple; the label and the check now
  agree). zones_to_geo_zones, whose three optional references an index covers, stays a link.
- mall/mall.sql `ums_member_member_tag_relation` (labelled not a link table; NOT flagged): by
  its name and its table comment ("用户和标签关系表", member-tag relation) it is a link table, like
  the other mall *_relation tables labelled uncertain. The check leaves it alone on purpose: it
  has no foreign key, no index, and both columns are nullable, so only the column names say that
  a row links anything, and a rule that flagged such tables would also flag any table with two
  optional `*_id` attributes. The label and the check agree here, for different reasons.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import CORPUS

BARS = {"uuid-primary-key": (0.95, 0.90), "link-table-primary-key": (0.90, 0.90)}
SCORE_LINE = re.compile(r"^(?P<rule>[\w-]+): recall (?P<recall>[\d.]+) \(\d+/\d+\), precision (?P<precision>[\d.]+)", re.M)

@pytest.mark.parametrize("rule", sorted(BARS))
def test_corpus_bar(corpus_run: tuple[dict[str, object], str], rule: str) -> None:
    _, scores = corpus_run
    found = {m["rule"]: (float(m["recall"]), float(m["precision"])) for m in SCORE_LINE.finditer(scores)}
    assert rule in found, scores
    recall, precision = found[rule]
    min_recall, min_precision = BARS[rule]
    assert recall >= min_recall and precision >= min_precision, scores


def _flagged(report: dict[str, object], rule: str) -> dict[tuple[str, str], str]:
    found: dict[tuple[str, str], str] = {}
    for finding in report["findings"]:  # type: ignore[attr-defined]
        if finding["rule"] == rule:
            path = Path(finding["path"]).resolve().relative_to(CORPUS.resolve()).as_posix()
            found[(path, finding["table"])] = finding["severity"]
    return found


def test_label_disagreements_stay_as_documented(corpus_run: tuple[dict[str, object], str]) -> None:
    links = _flagged(corpus_run[0], "link-table-primary-key")
    assert ("zencart/mysql_zencart.sql", "coupon_restrict") not in links  # an exclusive arc
    assert ("zencart/mysql_zencart.sql", "zones_to_geo_zones") in links  # optional sides, one key on the three
    assert ("mall/mall.sql", "ums_member_member_tag_relation") not in links


def test_corpus_findings_are_grounded(corpus_run: tuple[dict[str, object], str]) -> None:
    """Spot checks that the messages carry the evidence: link columns and their tables, the
    workload evidence, and a fix for every finding."""
    report = corpus_run[0]
    links = _flagged(report, "link-table-primary-key")
    uuids = _flagged(report, "uuid-primary-key")
    assert uuids[("apollo/apolloportaldb.sql", "SPRING_SESSION")] == "warning"  # name: *session
    assert uuids[("vaultwarden/2018-01-14-171611_create_tables/up.sql", "users")] == "info"
    assert links[("zoneminder/zm_create.sql.in", "Groups_Permissions")] == "warning"  # @ZM_MYSQL_ENGINE@: InnoDB
    assert links[("opencart/opencart.sql", "oc_coupon_product")] == "info"  # MyISAM
    by_table = {(f["table"], f["rule"]): f for f in report["findings"]}  # type: ignore[attr-defined]
    members = by_table[("GroupMembers", "link-table-primary-key")]
    assert members["fix"] == (
        "ALTER TABLE `GroupMembers` DROP PRIMARY KEY, DROP INDEX `GroupMembers1`, ADD PRIMARY KEY (`GroupId`, `MemberId`), "
        "ADD KEY (`id`), ADD KEY (`MemberId`);"
    )
    assert all(f["fix"] for f in report["findings"] if f["rule"] in BARS)  # type: ignore[attr-defined]
