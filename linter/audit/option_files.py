"""What a MySQL option file (``--defaults-file``, a ``~/.my.cnf``) tells the audit's client.

Why by hand: configparser rejects the ``!include`` lines and valueless options (``skip-ssl``)
that real option files have. Read as the mysql and mariadb clients read them: the ``[client]``
group and MariaDB's ``[client-mariadb]``, later lines winning; option names with ``-`` or ``_``
alike, a ``loose-`` prefix dropped; a value in matching quotes unquoted.

What is taken: ``password`` and the TLS options (``ssl-mode``, ``ssl-ca``, ``ssl-cert``,
``ssl-key``; MariaDB's ``ssl``/``skip-ssl`` and ``ssl-verify-server-cert``). A TLS option the
audit does not support (``ssl-crl``, ``ssl-capath``, ``ssl-cipher``, ``tls-version``...) is not
dropped silently: ``ClientOptions.ignored`` names it, and the audit says so, since a CRL left
unread weakens what the user asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["CLIENT_GROUPS", "ClientOptions", "OptionFileError", "read_option_file"]

#: the groups every client reads: MySQL's and MariaDB's common one, and MariaDB clients' own
CLIENT_GROUPS = ("client", "client-mariadb")
_VALUED = frozenset({"password", "ssl-mode", "ssl-ca", "ssl-cert", "ssl-key"})
_BOOLEAN = frozenset(prefix + name for prefix in ("", "skip-", "disable-", "enable-")
                     for name in ("ssl", "ssl-verify-server-cert"))
_FALSE = frozenset({"0", "off", "false", "no"})


class OptionFileError(Exception):
    """The option file cannot be read; names the file, never its content."""


@dataclass(frozen=True)
class ClientOptions:
    """The options of the client groups the audit uses, as written (TLS values still unchecked:
    ``linter.audit.tls.TlsOptions.resolve`` judges them)."""

    password: str | None = None
    ssl_mode: str | None = None
    ssl_ca: str | None = None
    ssl_cert: str | None = None
    ssl_key: str | None = None
    #: MariaDB's boolean ``ssl`` (True: ``ssl``/``enable-ssl``, False: ``skip-ssl``), None: unset
    ssl: bool | None = None
    #: MariaDB's ``ssl-verify-server-cert``, None: unset
    verify_server_cert: bool | None = None
    #: TLS options found and not supported, by name
    ignored: tuple[str, ...] = field(default=())


def _name(raw: str) -> str:
    return raw.strip().lower().replace("_", "-").removeprefix("loose-")


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _boolean(name: str, value: str | None) -> tuple[str, bool]:
    """``skip-x``/``disable-x``/``enable-x``/``x``/``x=0``: the option ``x`` and its truth."""
    for prefix, truth in (("skip-", False), ("disable-", False), ("enable-", True)):
        if name.startswith(prefix):
            return name[len(prefix):], truth if value is None else truth == (value.lower() not in _FALSE)
    return name, value is None or value.strip().lower() not in _FALSE


def read_option_file(path: str) -> ClientOptions:
    """The client options of the option file at ``path`` (see the module's docstring)."""
    try:
        with open(path, encoding="utf-8") as option_file:
            lines = option_file.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
        raise OptionFileError(f"cannot read the defaults file {path}: {reason}") from None
    group = ""
    found: dict[str, str] = {}
    ssl: bool | None = None
    verify: bool | None = None
    ignored: dict[str, None] = {}
    for raw in lines:
        line = raw.strip()
        if not line or line[0] in "#;!":
            continue
        if line.startswith("[") and line.endswith("]"):
            group = line[1:-1].strip().lower()
            continue
        if group not in CLIENT_GROUPS:
            continue
        key, sep, value = line.partition("=")
        name = _name(key)
        if name in _VALUED:
            if sep:
                found[name] = _unquote(value)
        elif name in _BOOLEAN:  # in the order met: a later `skip-ssl` undoes an `ssl`
            option, truth = _boolean(name, _unquote(value) if sep else None)
            if option == "ssl":
                ssl = truth
            else:
                verify = truth
        elif name.startswith(("ssl-", "tls-")):
            ignored[name] = None
    return ClientOptions(
        password=found.get("password"), ssl_mode=found.get("ssl-mode"), ssl_ca=found.get("ssl-ca"),
        ssl_cert=found.get("ssl-cert"), ssl_key=found.get("ssl-key"), ssl=ssl, verify_server_cert=verify,
        ignored=tuple(ignored))
