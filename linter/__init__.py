"""innolint: an InnoDB-aware linter for MySQL and MariaDB schema DDL."""

__version__ = "0.1.0"
