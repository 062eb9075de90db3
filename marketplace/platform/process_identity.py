"""Which process holds something, and whether it is still alive (an ``Idempotency-Key`` claim).

``current()`` names this process as ``host|boot id|pid namespace|pid|start tick``. ``alive(holder)`` answers
False only when the holder is provably gone: it ran on this machine (same host name, boot and pid
namespace) and no process with that pid and start time exists now (a recycled pid has another start time).
A holder on another machine, or a name this machine cannot check, is taken as alive (the caller then falls
back to its time limit).
"""

from __future__ import annotations

import os
import socket
from functools import cache
from pathlib import Path


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return ""


def _pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


def _start_tick(pid: int) -> str:
    """The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), '' if none."""
    stat = _read(f"/proc/{pid}/stat")
    if not stat or ")" not in stat:
        return ""
    fields = stat.rsplit(")", 1)[1].split()
    return fields[19] if len(fields) > 19 else ""


@cache
def _machine() -> tuple[str, str, str]:
    return socket.gethostname()[:80], _read("/proc/sys/kernel/random/boot_id"), _pid_namespace()


def current() -> str:
    pid = os.getpid()
    return "|".join((*_machine(), str(pid), _start_tick(pid)))[:255]


def alive(holder: str | None) -> bool:
    parts = (holder or "").split("|")
    if len(parts) != 5:
        return True
    host, boot, namespace, pid, tick = parts
    if not boot or not tick or (host, boot, namespace) != _machine() or not pid.isdigit():
        return True
    return _start_tick(int(pid)) == tick
