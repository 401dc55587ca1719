"""The Markdown summary: counts, worst findings, fixes; text from the schema stays text; caps hold."""

from __future__ import annotations

import re

from linter.rules.findings import Diagnostic, Finding, Report, RunStats
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


# --- reports people read (issue 16): short rows, one explanation per rule, links, fixes folded ------

LONG_WHY = ("it has no PRIMARY KEY and no UNIQUE key of NOT NULL columns, so InnoDB clusters it on a hidden 6-byte "
            "DB_ROW_ID taken from one server-wide counter under the dict_sys mutex; inserts into all such tables "
            "contend on it. ") * 6  # about 1 KB, as the checks' messages are


def test_thirty_findings_make_a_short_comment(monkeypatch) -> None:
    monkeypatch.setenv("INNOLINT_RULES_URL", "https://github.example/acme/innolint/blob/v1/docs/rules")
    rules = ["no-primary-key", "uuid-primary-key", "redundant-index"]
    many = [finding(rule=rules[i % 3], line=i + 1, table=f"t{i}", message=f"t{i}: {LONG_WHY}",
                    fix=f"ALTER TABLE `t{i}` ADD COLUMN `id` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY FIRST;")
            for i in range(30)]
    text = summary.render(Report(findings=many), limit=summary.COMMENT_LIMIT)
    assert len(text.encode()) < 16_000, len(text.encode())  # 30 x 1 KB of explanation is not repeated
    assert LONG_WHY[:200] not in text
    finding_rows = [r for r in rows(text) if r.startswith("| warning |")]
    assert len(finding_rows) == 30 and all(len(r) < 400 for r in finding_rows)
    # one explanation per rule, each with its page
    explanations = [line for line in text.splitlines() if line.startswith("- **")]
    assert [line.split("**")[1] for line in explanations] == rules
    for rule in rules:
        assert text.count(f"[Rule page](https://github.example/acme/innolint/blob/v1/docs/rules/{rule}.md)") == 1
        assert f"[{rule}](https://github.example/acme/innolint/blob/v1/docs/rules/{rule}.md)" in finding_rows[rules.index(rule)]
    # every fix behind its own <details>
    assert text.count("<details>") == 20 and text.count("</details>") == 20
    assert "Not shown here: 10 fixes" in text


def test_one_line_keeps_the_first_sentence() -> None:
    assert summary.one_line("t has no key. InnoDB clusters it.") == "t has no key."
    assert summary.one_line("t: no key; InnoDB clusters it on a hidden id") == "t: no key …"
    assert summary.one_line("version 8.0.30 fixes it") == "version 8.0.30 fixes it"  # no space after the dot
    long = "word " * 100
    cut = summary.one_line(long)
    assert len(cut) <= summary.ROW_MESSAGE_CHARS and cut.endswith("…")


def test_without_a_known_page_the_explanation_says_how_to_read_it(monkeypatch) -> None:
    monkeypatch.setenv("INNOLINT_RULES_URL", "none")  # wins over the action's and the package's address
    monkeypatch.setenv("INNOLINT_ACTION_REPOSITORY", "acme/innolint")
    monkeypatch.setenv("INNOLINT_ACTION_REF", "v2")
    text = summary.render(Report(findings=[finding()]))
    assert "`innolint explain no-primary-key` says more." in text
    assert "](http" not in text.split("### Rules")[1].split("###")[0]


def test_a_grouped_finding_is_one_row() -> None:
    grouped = finding(schema="tenant_00001", count=2000, schemas=("tenant_00001", "tenant_00002"))
    text = summary.render(Report(findings=[grouped]))
    (row,) = [r for r in rows(text) if r.startswith("| warning |")]
    assert "tenant\\_00001.t \\(+1,999 tenant schemas\\)" in row
    assert "tenant_00001.t and 1,999 more tenant schemas" in text  # the fix's label


def test_a_run_that_could_not_start_is_said_in_full() -> None:
    report = Report(diagnostics=[Diagnostic(rule="usage-error", severity="error", path="",
                                            message="innolint check stopped (exit 1) without writing its report: "
                                            "RuntimeError: boom. Something else.")])
    text = summary.render(report)
    assert "| error | - | usage-error | innolint check stopped \\(exit 1\\) without writing its report: " \
           "RuntimeError: boom. Something else. |" in text


def test_notes_count_in_the_cap() -> None:
    many = [finding(line=i, message="m" * 500) for i in range(1, 3001)]
    notes = ["innolint could add only 50 of 500 annotations: " + "x" * 5000] * 3
    text = summary.render(Report(findings=many), limit=summary.CHECK_SUMMARY_LIMIT, notes=notes)
    assert len(text.encode("utf-8")) <= summary.CHECK_SUMMARY_LIMIT
    assert text.count("> innolint could add only 50 of 500 annotations") == 3


def test_a_report_about_a_change_puts_what_it_adds_first_and_counts_the_rest() -> None:
    """What the change adds (new) has its rows, rules and fixes; what was there before (new
    false) is a section of its own: counted by rule, and its rows only where asked (the job
    summary, not the PR comment)."""
    added = [finding("error", line=40, table="orders", rule="zero-date-default", new=True)]
    old = [finding("warning", line=n, table=f"legacy_{n}", new=False) for n in range(1, 300)]
    report = Report(findings=[*old, *added], stats=RunStats(files=1, statements=300, tables=300))
    full = summary.render(report, fail_level="warning")
    assert full.startswith("## innolint: 1 finding this change adds or makes worse (1 error); 299 already there\n")
    assert full.index("### What this change adds or makes worse") < full.index("### Already there before this change")
    assert "| error | db/a.sql:40 | zero-date-default | shop.orders |" in full
    assert "| no-primary-key | 0 | 299 | 0 | 299 |" in full and "legacy\\_5 |" in full
    assert "shop.legacy" not in full.split("### Fixes")[1].split("### Already")[0]  # fixes: the change's only
    short = summary.render(report, fail_level="warning", existing_rows=False)
    assert "legacy\\_5" not in short and "| no-primary-key | 0 | 299 | 0 | 299 |" in short
    assert len(short.encode()) < len(full.encode()) // 5
    nothing = summary.render(Report(findings=old), existing_rows=False)
    assert nothing.startswith("## innolint: nothing new in this change; 299 already there\n")
    # compared with nothing: as before
    assert summary.render(Report(findings=[finding()])).startswith("## innolint: 1 finding (1 warning) in 1 file")
