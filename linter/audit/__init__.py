"""Audit of a live MySQL/MariaDB server: read-only connection and compression measurements.

``innolint audit`` reads what a running server knows (SHOW CREATE TABLE, information_schema,
performance_schema) and feeds the DDL through the same parse path as files. It must never change
anything on the server, so every query goes through ``connection.ReadOnlyConnection``.
"""
