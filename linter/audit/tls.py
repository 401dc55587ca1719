"""TLS for the audit's connection: the mysql client's ``ssl-mode`` and what each mode checks.

Why: an audit logs in to production, often from a CI runner over a network the DBA does not
own. The client's modes are the vocabulary DBAs know (MySQL's ``--ssl-mode``, Skeema's
``ssl-mode``), so they are the options here, from the DSN, the flags or a defaults file:

- ``DISABLED``: no TLS.
- ``PREFERRED`` (over TCP, when nothing is said): TLS when the server offers it, its certificate
  not checked; plain text otherwise. Over a Unix socket nothing is said means DISABLED: the
  socket never leaves the machine.
- ``REQUIRED``: TLS or no connection; the certificate is not checked (encryption against a
  passive listener only).
- ``VERIFY_CA``: REQUIRED, and the server's certificate must chain to ``ssl-ca`` (the system's
  trusted CAs without one).
- ``VERIFY_IDENTITY``: VERIFY_CA, and the certificate must name the host of the DSN.

``ssl-ca`` given without a mode means VERIFY_CA: a CA is given to be checked against.
``ssl-cert``/``ssl-key`` present a client certificate (for a user created ``REQUIRE X509``).

The guarantee that matters: when the mode requires TLS (REQUIRED and up) and TLS is not there or
not verified, no credential leaves the client. ``linter.audit.connection`` refuses before the
handshake response (the packet with the user name and the password's scramble) when the server
does not offer TLS, and the certificate is checked during the TLS handshake, which comes before
that packet too; tests/test_audit_tls.py watches the bytes and the server's counters.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from enum import Enum

__all__ = ["TlsError", "TlsMode", "TlsOptions"]


class TlsError(ValueError):
    """The TLS options contradict each other or name an unknown mode."""


class TlsMode(Enum):
    DISABLED = "DISABLED"
    PREFERRED = "PREFERRED"
    REQUIRED = "REQUIRED"
    VERIFY_CA = "VERIFY_CA"
    VERIFY_IDENTITY = "VERIFY_IDENTITY"

    @classmethod
    def parse(cls, text: str) -> TlsMode:
        try:
            return cls(text.strip().upper().replace("-", "_"))
        except ValueError:
            known = ", ".join(mode.value for mode in cls)
            raise TlsError(f"unknown ssl-mode {text.strip()[:40]!r} (known: {known})") from None

    @property
    def required(self) -> bool:
        """No connection without TLS."""
        return self in (TlsMode.REQUIRED, TlsMode.VERIFY_CA, TlsMode.VERIFY_IDENTITY)

    @property
    def verifies(self) -> bool:
        """The server's certificate is checked against a CA."""
        return self in (TlsMode.VERIFY_CA, TlsMode.VERIFY_IDENTITY)


@dataclass(frozen=True)
class TlsOptions:
    """The TLS settings of one connection, resolved (see ``resolve``)."""

    mode: TlsMode
    ca: str | None = None
    cert: str | None = None
    key: str | None = None
    #: something the user should know about the settings (a CA REQUIRED does not use)
    note: str | None = None

    @classmethod
    def resolve(cls, mode: str | None, ca: str | None = None, cert: str | None = None, key: str | None = None,
                *, socket: bool = False, mariadb_ssl: bool | None = None,
                verify_server_cert: bool | None = None) -> TlsOptions:
        """The settings from what the user said (already merged: flags over DSN over defaults
        file). ``mariadb_ssl`` and ``verify_server_cert`` are MariaDB's option-file booleans,
        used only when no ssl-mode is given: ``skip-ssl`` is DISABLED, ``ssl`` REQUIRED (the
        user asked for TLS: never fall back to plain text), ``ssl-verify-server-cert``
        VERIFY_IDENTITY (the MariaDB client checks the CA and the host name)."""
        if key is not None and cert is None:
            raise TlsError("ssl-key needs ssl-cert (the client certificate it belongs to)")
        if mode is not None:
            chosen = TlsMode.parse(mode)
        elif verify_server_cert:
            chosen = TlsMode.VERIFY_IDENTITY
        elif mariadb_ssl is False:
            chosen = TlsMode.DISABLED
        elif ca is not None:
            chosen = TlsMode.VERIFY_CA
        elif mariadb_ssl:
            chosen = TlsMode.REQUIRED
        else:
            chosen = TlsMode.DISABLED if socket else TlsMode.PREFERRED
        note = None
        if ca is not None and not chosen.verifies and chosen is not TlsMode.DISABLED:
            note = (f"ssl-mode {chosen.value} encrypts but does not check the server's certificate: ssl-ca is "
                    "not used (VERIFY_CA or VERIFY_IDENTITY check it)")
        return cls(mode=chosen, ca=ca, cert=cert, key=key, note=note)

    def context(self) -> ssl.SSLContext | None:
        """The SSLContext for this mode (None for DISABLED). Built here rather than by the driver
        so that what each mode checks does not depend on the driver's version or defaults."""
        if self.mode is TlsMode.DISABLED:
            return None
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        if self.mode.verifies:
            context.check_hostname = self.mode is TlsMode.VERIFY_IDENTITY
            context.verify_mode = ssl.CERT_REQUIRED
            try:
                if self.ca is not None:
                    context.load_verify_locations(cafile=self.ca)
                else:
                    context.load_default_certs()
            except (OSError, ssl.SSLError) as error:
                raise TlsError(f"cannot read ssl-ca {self.ca}: {_reason(error)}") from None
        else:
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        if self.cert is not None:
            try:  # an encrypted key is refused rather than prompted for on a terminal
                context.load_cert_chain(self.cert, keyfile=self.key, password=lambda: b"")
            except (OSError, ssl.SSLError) as error:
                raise TlsError(f"cannot use ssl-cert {self.cert}"
                               f"{f' with ssl-key {self.key}' if self.key else ''}: {_reason(error)} "
                               "(an encrypted key is not supported)") from None
        return context

    def describe(self) -> str:
        """What this mode checks, for messages: ``VERIFY_CA (ca.pem)``."""
        if self.mode.verifies:
            return f"{self.mode.value} ({self.ca or 'the system CAs'})"
        return self.mode.value


def _reason(error: Exception) -> str:
    if isinstance(error, ssl.SSLError):
        return error.reason or str(error)
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)
