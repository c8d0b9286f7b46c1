# Stand-in for CircuitPython's storage: remount() is recorded.
import simcp


def remount(mount_path, readonly=False, *, disable_concurrent_write_protection=False):
    simcp.remounts.append((mount_path, readonly))
