"""Argument checking of the console command (`python -m explorer`) and its benchmarks: a parser whose usage errors are
one line (exit 2), and argparse types for the flags that are not run settings (counts, durations, sizes). Run
settings are checked by their declarations (`explorer.bench.common.add_setting_argument`). Standard library only, so
that a bad flag is refused before anything heavy is imported."""

from __future__ import annotations

import argparse
import errno
import math
import socket


class Parser(argparse.ArgumentParser):
    """An `argparse.ArgumentParser` whose usage error is one line on stderr, ``PROG: error: MESSAGE (PROG --help lists
    the options)``, and exit status 2 (its sub-command parsers are of this class too)."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} ({self.prog} --help lists the options)\n")


def whole_number(low: int, high: int | None = None, floats: bool = False):
    """An argparse type: a whole number from `low` (to `high`). `floats`: written as a number such as 1e6 too."""
    allowed = f"from {low} to {high}" if high is not None else f"at least {low}"

    def parse(text: str) -> int:
        try:
            number = float(text) if floats else int(text)
        except ValueError:
            number = None
        whole = number is not None and math.isfinite(number) and number == int(number)
        if not whole or number < low or (high is not None and number > high):
            raise argparse.ArgumentTypeError(f"must be a whole number {allowed}, got {text!r}")
        return int(number)

    parse.__name__ = "whole number"
    return parse


def finite_number(low: float, strict: bool):
    """An argparse type: a finite number above `low` (`strict`) or at least `low`."""
    allowed = f"{'above' if strict else 'at least'} {low:g}"

    def parse(text: str) -> float:
        try:
            number = float(text)
        except ValueError:
            number = math.nan
        if not (math.isfinite(number) and (number > low if strict else number >= low)):
            raise argparse.ArgumentTypeError(f"must be a finite number {allowed}, got {text!r}")
        return number

    parse.__name__ = "number"
    return parse


positive_number = finite_number(0.0, strict=True)  # seconds, gigabytes
non_negative_number = finite_number(0.0, strict=False)


def listening_problem(port: int, address: str | None) -> tuple[str, str] | None:
    """Why a server could not listen on `address`:`port`: (the setting at fault, "port" or "address"; the reason in
    words naming the value), or None if it can. Binds (and closes) the sockets the way the server will (Tornado's
    `bind_sockets`, as Bokeh does), so that a port in use or an address that is not this machine's is refused before
    anything heavy is imported."""
    from tornado.netutil import bind_sockets

    not_here = f"{address!r} is not an address of this machine"
    try:
        sockets = bind_sockets(port, address)
    except socket.gaierror as err:
        return "address", f"{not_here} ({err.strerror})"
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            where = f"on {address}" if address else "on this machine"
            return "port", f"port {port} is in use {where}; choose another, or 0 for a free one"
        if err.errno == errno.EADDRNOTAVAIL:
            return "address", f"{not_here} ({err.strerror})"
        return "port", f"cannot listen on {address or 'all addresses'} port {port}: {err.strerror or err}"
    for sock in sockets:
        sock.close()
    return None
