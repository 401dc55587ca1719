"""The Markdown summary: counts, worst findings, fixes; text from the schema stays text; caps hold."""

from __future__ import annotations

import re

from linter.findings import Diagnostic, Finding, Report, RunStats
from linter.report import summary


def finding(severity: str = "warning", **changes) -> Finding:
    values = dict(rule="no-primary-key", severity=severity, path="db/a.sql", line=3, schema="shop", table="t",
                  message="t has no primary key", fix="ALTER TABLE `t` ADD PRIMARY KEY (`id`);")
    values.update(changes)
    return Finding(**values)


def rows(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("| ") and not line.startswith("| ---")]


def test_counts_by_rule_worst_findings_and_fixes() -> None:
    report = Report(
        findings=[finding("info", line=9), finding("error", line=20, table="orders"), finding("warning", line=1),
                  finding("warning", rule="other-rule", line=5, fix=None)],
        diagnostics=[Diagnostic(rule="parse-error", path="db/b.sql", line=4, message="cannot parse")],
        stats=RunStats(files=2, statements=10, tables=4),
    )
    text = summary.render(report, fail_level="warning")
    assert text.startswith("## innolint: 4 findings (1 error, 2 warnings, 1 info) in 1 file\n")
    assert "2 files, 10 statements, 4 tables linted; 1 diagnostic; fails at `warning`." in text
    table = rows(text)
    assert table[0] == "| Rule | Errors | Warnings | Info | Total |"
    assert table[1] == "| no-primary-key | 1 | 1 | 1 | 3 |"
    assert table[2] == "| other-rule | 0 | 1 | 0 | 1 |"
    worst = [r for r in table if r.startswith(("| error |", "| warning |", "| info |"))]
    assert [r.split(" | ")[1] for r in worst[:4]] == ["db/a.sql:20", "db/a.sql:1", "db/a.sql:5", "db/a.sql:9"]
    assert "| warning | db/b.sql:4 | parse-error | cannot parse |" in text
    # fixes of the worst findings, in order, each in a collapsed block with its SQL fenced
    assert text.index("shop.orders (db/a.sql:20)") < text.index("shop.t (db/a.sql:1)")
    assert "```sql\nALTER TABLE `t` ADD PRIMARY KEY (`id`);\n```" in text
    assert "Not shown here" not in text


def test_no_findings() -> None:
    assert summary.render(Report()).startswith("## innolint: no findings\n")


def test_schema_text_renders_as_text() -> None:
    evil = finding(table="<script>alert(1)</script>", schema=None,
                   message="a | b `code` **bold** [link](http://x) <img src=x> @octocat\nsecond line",
                   path="db/x_y.sql", fix="SELECT ```fence``` ;")
    text = summary.render(Report(findings=[evil]))
    row = next(r for r in rows(text) if r.startswith("| warning |"))
    assert "<script>" not in text and "<img" not in text
    assert "&lt;script&gt;alert\\(1\\)&lt;/script&gt;" in row
    # the pipe cannot end the cell, the backticks and brackets are literal, no one is mentioned,
    # and the URL is no link (GitHub's autolinker starts at the `:` of `http://`; issue 14)
    assert "a \\| b \\`code\\` \\*\\*bold\\*\\* \\[link\\]\\(http\\://x\\) &lt;img src=x&gt; @\u200boctocat second line" in row
    cells = re.split(r"(?<!\\)\|", row)
    assert len(cells) == 7  # 5 cells between 6 unescaped pipes
    assert "db/x\\_y.sql:3" in row
    # a fence longer than any backtick run inside the fix
    assert "````sql\nSELECT ```fence``` ;\n````" in text
    assert "<summary>no-primary-key — &lt;script&gt;alert(1)&lt;/script&gt; (db/x_y.sql:3)</summary>" in text


def test_md_text_escapes() -> None:
    assert summary.md_text("a|b") == "a\\|b"
    assert summary.md_text("x`y") == "x\\`y"
    assert summary.md_text("<b>&") == "&lt;b&gt;&amp;"
    assert summary.md_text("one\r\ntwo") == "one two"


def test_links_to_the_commit_when_known() -> None:
    text = summary.render(Report(findings=[finding(path="db/a b.sql")]), blob_url="https://github.com/o/r/blob/abc")
    assert "[db/a b.sql:3](https://github.com/o/r/blob/abc/db/a%20b.sql#L3)" in text


def test_stays_under_the_cap_and_says_what_was_left_out() -> None:
    many = [finding(line=i, message="m" * 500) for i in range(1, 3001)]
    for limit in (summary.CHECK_SUMMARY_LIMIT, summary.COMMENT_LIMIT, 20_000):
        text = summary.render(Report(findings=many), limit=limit)
        assert len(text.encode("utf-8")) <= limit
        assert re.search(r"_Not shown here: \d+ findings", text)
        assert text.rstrip().endswith("lists every one._")


def test_step_summary_cap_of_one_mebibyte() -> None:
    many = [finding(line=i, message="é" * 3000, fix="-- " + "x" * 3000) for i in range(1, 2001)]
    text = summary.render(Report(findings=many), max_rows=2000, max_fixes=2000)
    assert len(text.encode("utf-8")) <= summary.STEP_SUMMARY_LIMIT
    assert "Not shown here" in text


def test_row_and_fix_limits() -> None:
    many = [finding(line=i) for i in range(1, 51)]
    text = summary.render(Report(findings=many), max_rows=10, max_fixes=3)
    assert sum(1 for r in rows(text) if r.startswith("| warning |")) == 10
    assert text.count("<details>") == 3
    assert "Not shown here: 40 findings, 47 fixes" in text


def test_header_goes_first() -> None:
    text = summary.render(Report(), header="<!-- marker -->\n")
    assert text.startswith("<!-- marker -->\n## innolint")
