"""Certificates for the TLS tests, made in the test with the `cryptography` package: a CA, a
server certificate it signs (for the names given), a client certificate it signs, and a second
CA that signs nothing the server shows (the "wrong CA").

Why generated: a fixed certificate in the tree expires and teaches nothing about the names in
it; each run makes its own, valid for a day, so a test can choose exactly which host names the
server's certificate carries (VERIFY_IDENTITY is about that).
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Certificates", "make_certificates"]


@dataclass(frozen=True)
class Certificates:
    """Paths of the PEM files."""

    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    other_ca: Path
    client_subject: str  # as the server prints it: /CN=...


def _key():  # type: ignore[no-untyped-def]
    from cryptography.hazmat.primitives.asymmetric import ec

    return ec.generate_private_key(ec.SECP256R1())


def _write_key(key, path: Path) -> None:  # type: ignore[no-untyped-def]
    from cryptography.hazmat.primitives import serialization

    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                       serialization.NoEncryption()))


def _certificate(subject: str, key, issuer: str, issuer_key, *, ca: bool,  # type: ignore[no-untyped-def]
                 names: tuple[str, ...] = (), client: bool = False):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder()
               .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
               .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
               .public_key(key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5))
               .not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        builder = builder.add_extension(x509.KeyUsage(
            digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
            key_encipherment=False, data_encipherment=False, key_agreement=False, encipher_only=False,
            decipher_only=False), critical=True)
        builder = builder.add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
    else:
        builder = builder.add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()),
                                        critical=False)
        usage = ExtendedKeyUsageOID.CLIENT_AUTH if client else ExtendedKeyUsageOID.SERVER_AUTH
        builder = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    if names:
        alternatives: list[x509.GeneralName] = []
        for name in names:
            try:
                alternatives.append(x509.IPAddress(ipaddress.ip_address(name)))
            except ValueError:
                alternatives.append(x509.DNSName(name))
        builder = builder.add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def make_certificates(directory: Path, server_names: tuple[str, ...]) -> Certificates:
    """A CA and the certificates it signs into ``directory``; the server's certificate is for
    ``server_names`` (host names and IP addresses, in its subjectAltName)."""
    from cryptography.hazmat.primitives import serialization

    directory.mkdir(parents=True, exist_ok=True)

    def pem(certificate, name: str) -> Path:  # type: ignore[no-untyped-def]
        path = directory / name
        path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        return path

    ca_key, other_key = _key(), _key()
    ca = pem(_certificate("innolint test CA", ca_key, "innolint test CA", ca_key, ca=True), "ca.pem")
    other = pem(_certificate("some other CA", other_key, "some other CA", other_key, ca=True), "other-ca.pem")
    server_key, client_key = _key(), _key()
    server = pem(_certificate(server_names[0], server_key, "innolint test CA", ca_key, ca=False, names=server_names),
                 "server-cert.pem")
    client = pem(_certificate("innolint-auditor", client_key, "innolint test CA", ca_key, ca=False, client=True),
                 "client-cert.pem")
    _write_key(server_key, directory / "server-key.pem")
    _write_key(client_key, directory / "client-key.pem")
    return Certificates(ca=ca, server_cert=server, server_key=directory / "server-key.pem", client_cert=client,
                        client_key=directory / "client-key.pem", other_ca=other, client_subject="/CN=innolint-auditor")
