"""The server emulator: DDL operations replayed as MariaDB and MySQL would run them."""
