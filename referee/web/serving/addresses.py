"""Where the phones at the table can reach this machine.

The functions taking ``adapters`` are pure (tests hand them made-up
interfaces); :func:`machine_adapters` reads the real ones through ``ifaddr``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

import ifaddr

LOOPBACK = "127.0.0.1"
WILDCARDS = frozenset({"", "0.0.0.0", "::", "[::]"})
# Container bridges, VPNs and virtual machines' networks: reachable from this machine, rarely
# from a phone on the same Wi-Fi, so their addresses come after the real interfaces'.
VIRTUAL_PREFIXES = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vboxnet",
    "vmnet",
    "lxc",
    "lxd",
    "podman",
    "cni",
    "flannel",
    "tun",
    "tap",
    "wg",
    "tailscale",
    "zt",
    "utun",
)


def machine_adapters() -> list[ifaddr.Adapter]:
    return list(ifaddr.get_adapters())


def network_addresses(adapters: Iterable[ifaddr.Adapter]) -> list[str]:
    """This machine's IPv4 addresses that another device may reach, real interfaces first.

    Loopback, link-local (169.254.x.x, a network that gave no address) and
    IPv6 addresses are left out; each address appears once.
    """
    real: list[str] = []
    virtual: list[str] = []
    for adapter in adapters:
        name = str(adapter.nice_name or adapter.name).lower()
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):  # IPv6 addresses come as tuples
                continue
            try:
                address = ipaddress.IPv4Address(ip.ip)
            except ValueError:
                continue
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            (virtual if name.startswith(VIRTUAL_PREFIXES) else real).append(str(address))
    return list(dict.fromkeys(real + virtual))


def is_loopback(host: str) -> bool:
    """``localhost``, ``*.localhost`` or an address of the loopback range (127.x, ::1)."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_hosts(listening: str, adapters: Iterable[ifaddr.Adapter]) -> list[str]:
    """The addresses other devices reach a server listening on ``listening`` at, best first.

    A server on every interface (``0.0.0.0``) is reached at each of the machine's
    network addresses; one on a single address at that address; one on the
    loopback only (kept private) from no other device.
    """
    if listening in WILDCARDS:
        return network_addresses(adapters)
    if is_loopback(listening):
        return []
    return [listening]


def reachable_host(listening: str, adapters: Iterable[ifaddr.Adapter]) -> str | None:
    """The first of :func:`network_hosts`, or None when the server is private."""
    return next(iter(network_hosts(listening, adapters)), None)


def host_with_port(host: str, port: int | str | None) -> str:
    """``host:port`` with IPv6 addresses in brackets; the port is left out when it is 80."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return host if port in (None, "", 80, "80") else f"{host}:{port}"


def url(host: str, port: int) -> str:
    return f"http://{host_with_port(host, port)}/"


def phone_urls(listening: str, port: int, adapters: Iterable[ifaddr.Adapter]) -> list[str]:
    """Every address a phone can open: the network ones first, then this machine's own.

    >>> phone_urls("127.0.0.1", 5000, [])
    ['http://127.0.0.1:5000/']
    """
    hosts = network_hosts(listening, adapters)
    if listening in WILDCARDS or is_loopback(listening):
        hosts.append(LOOPBACK if listening in WILDCARDS else listening)
    return [url(host, port) for host in hosts]
