#!/usr/bin/env python3
"""faultfs's own test: mounts it over a scratch directory and checks its model of durability, one behaviour at a
time, with assertions that fail when the model is wrong.

    python3 faultfs/selftest.py BINARY     (faultfs/powerloss.sh builds the binary and runs this first)
"""
import os
import socket
import subprocess
import sys
import tempfile
import time


class Mount:
    def __init__(self, binary, root):
        self.root = root
        self.backing = os.path.join(root, "backing")
        self.state = os.path.join(root, "state")
        self.mnt = os.path.join(root, "mnt")
        self.control = os.path.join(root, "control")
        for d in (self.backing, self.state, self.mnt):
            os.makedirs(d)
        with open(os.path.join(self.backing, "present-at-mount"), "w") as f:
            f.write("old")
        self.log = open(os.path.join(root, "faultfs.log"), "w")
        self.process = subprocess.Popen([binary, "--seed", "7", self.backing, self.state, self.control, self.mnt],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10  # a bound for a broken mount, not a timing assertion
        while not os.path.ismount(self.mnt):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("faultfs did not mount; see " + self.log.name)
            time.sleep(0.05)

    def path(self, name):
        return os.path.join(self.mnt, name)

    def command(self, line):
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(self.control)
            s.sendall((line + "\n").encode())
            reply = s.makefile().readline().strip()
        return reply

    def powercut(self, mode=""):
        reply = self.command(("powercut " + mode).strip())
        assert reply.startswith("ok powercut"), reply
        return reply

    def close(self):
        subprocess.run(["fusermount3", "-u", self.mnt], check=False)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


def write(path, data, flags=os.O_CREAT | os.O_WRONLY | os.O_TRUNC, sync=False):
    fd = os.open(path, flags, 0o644)
    try:
        os.write(fd, data)
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def sync_dir(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def tests(m):
    # Present at mount: durable.
    m.powercut()
    check(read(m.path("present-at-mount")) == b"old", "a file present at mount must survive")

    # fsync of a file alone does not make a new name durable.
    write(m.path("unnamed"), b"data", sync=True)
    m.powercut()
    check(not os.path.exists(m.path("unnamed")), "a created file whose directory was never fsynced must vanish")

    # Name durable, data not: an empty file.
    write(m.path("empty"), b"data")
    sync_dir(m.mnt)
    m.powercut()
    check(read(m.path("empty")) == b"", "a durable name whose data was never fsynced must be empty")

    # Both durable; later unsynced appends and overwrites are lost.
    write(m.path("kept"), b"0123456789", sync=True)
    sync_dir(m.mnt)
    write(m.path("kept"), b"abc", flags=os.O_WRONLY | os.O_APPEND)
    m.powercut()
    check(read(m.path("kept")) == b"0123456789", "an unsynced append must be lost")
    fd = os.open(m.path("kept"), os.O_WRONLY)
    os.pwrite(fd, b"XY", 2)
    os.close(fd)
    m.powercut()
    check(read(m.path("kept")) == b"0123456789", "an unsynced overwrite must be lost")
    fd = os.open(m.path("kept"), os.O_WRONLY)
    os.pwrite(fd, b"XY", 2)
    os.fsync(fd)
    os.close(fd)
    m.powercut()
    check(read(m.path("kept")) == b"01XY456789", "a synced overwrite must survive")
    os.truncate(m.path("kept"), 3)
    m.powercut()
    check(read(m.path("kept")) == b"01XY456789", "an unsynced truncate must be undone")

    # A file that only grew: its fsync appends the new tail to the durable copy.
    write(m.path("grow"), b"a", sync=True)
    sync_dir(m.mnt)
    write(m.path("grow"), b"bc", flags=os.O_WRONLY | os.O_APPEND, sync=True)
    m.powercut()
    check(read(m.path("grow")) == b"abc", "a synced append must survive")
    check(" appended_bytes=0 " not in m.command("stats") + " ", "an append must be synced by appending")
    os.unlink(m.path("grow"))
    sync_dir(m.mnt)

    # Unsynced rename and unlink are undone; after fsyncdir they stay.
    os.rename(m.path("kept"), m.path("renamed"))
    os.unlink(m.path("present-at-mount"))
    m.powercut()
    check(sorted(os.listdir(m.mnt)) == ["empty", "kept", "present-at-mount"], "unsynced rename/unlink must be undone")
    os.rename(m.path("kept"), m.path("renamed"))
    sync_dir(m.mnt)
    m.powercut()
    check(sorted(os.listdir(m.mnt)) == ["empty", "present-at-mount", "renamed"], "a synced rename must survive")
    check(read(m.path("renamed")) == b"01XY456789", "a renamed file keeps its durable data")

    # Rename over an existing file, unsynced: the old content is back.
    write(m.path("new"), b"new", sync=True)
    os.rename(m.path("new"), m.path("renamed"))
    m.powercut()
    check(read(m.path("renamed")) == b"01XY456789", "an unsynced replacing rename must be undone")

    # A new directory: durable only when its parent is fsynced, its entries only when it is.
    os.mkdir(m.path("sub"))
    write(m.path("sub/f"), b"f", sync=True)
    sync_dir(m.mnt)
    m.powercut()
    check(os.listdir(m.path("sub")) == [], "entries of a directory never fsynced must vanish")
    write(m.path("sub/f"), b"f", sync=True)
    sync_dir(m.path("sub"))
    m.powercut()
    check(read(m.path("sub/f")) == b"f", "a synced file in a synced directory must survive")

    # Torn: some unsynced appends survive in part, never in full, never beyond.
    write(m.path("log"), b"head", sync=True)
    sync_dir(m.mnt)
    tail = bytes(range(256)) * 4
    torn_seen = False
    for _ in range(8):
        write(m.path("log"), tail, flags=os.O_WRONLY | os.O_APPEND)
        m.powercut("torn")
        data = read(m.path("log"))
        check(data.startswith(b"head") and tail.startswith(data[4:]) and len(data) < 4 + len(tail),
              "a torn file must hold its synced part and a strict prefix of its unsynced tail, got %d bytes"
              % len(data))
        torn_seen |= len(data) > 4
        write(m.path("log"), b"head", sync=True)
    check(torn_seen, "torn mode must keep part of a tail at least once in 8 cuts")

    # A failed fsync: the error reaches the caller, the data is gone for good even after a later successful fsync.
    check(m.command("fail-fsync EIO log").startswith("ok"), "fail-fsync")
    fd = os.open(m.path("log"), os.O_WRONLY | os.O_APPEND)
    os.write(fd, b"LOST")
    try:
        os.fsync(fd)
        raise AssertionError("fsync must fail with EIO")
    except OSError as e:
        check(e.errno == 5, "fsync must fail with EIO, got %s" % e)
    write(m.path("renamed"), b"other", sync=True)  # a path without the substring still syncs
    check(m.command("ok-fsync").startswith("ok"), "ok-fsync")
    os.fsync(fd)
    os.close(fd)
    m.powercut()
    check(read(m.path("log")) == b"head\0\0\0\0", "data whose fsync failed must be zeros after a later fsync, got %r"
          % read(m.path("log")))
    check(read(m.path("renamed")) == b"other", "fail-fsync with a substring must spare other paths")
    check(m.command("fail-fsync ENOSPC").startswith("ok"), "fail-fsync ENOSPC")
    try:
        write(m.path("renamed"), b"x", sync=True)
        raise AssertionError("fsync must fail with ENOSPC")
    except OSError as e:
        check(e.errno == 28, "fsync must fail with ENOSPC, got %s" % e)
    m.command("ok-fsync")

    # Hard links survive as one file.
    os.link(m.path("renamed"), m.path("linked"))
    sync_dir(m.mnt)
    m.powercut()
    check(os.stat(m.path("linked")).st_ino == os.stat(m.path("renamed")).st_ino, "a durable hard link stays one file")

    # A file open at the cut belongs to the world before it: EIO.
    fd = os.open(m.path("renamed"), os.O_RDWR)
    m.powercut()
    try:
        os.write(fd, b"after the cut")
        raise AssertionError("a write through a file opened before the cut must fail")
    except OSError as e:
        check(e.errno == 5, "a write through a file opened before the cut must answer EIO, got %s" % e)
    try:
        os.close(fd)
        raise AssertionError("closing a file opened before the cut must report the lost device")
    except OSError as e:
        check(e.errno == 5, "closing a file opened before the cut must answer EIO, got %s" % e)

    # Not implemented: an error, never a silent success.
    try:
        os.symlink("renamed", m.path("symlink"))
        raise AssertionError("symlink must fail")
    except OSError as e:
        check(e.errno == 38, "symlink must answer ENOSYS, got %s" % e)
    check(m.command("nonsense").startswith("error"), "an unknown command must answer an error")
    stats = m.command("stats")
    check(stats.startswith("ok ") and "powercuts=" in stats, stats)
    return stats


def main():
    binary = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="faultfs-selftest-") as root:
        m = Mount(binary, root)
        try:
            stats = tests(m)
        finally:
            m.close()
    print("faultfs self-test passed: " + stats)


if __name__ == "__main__":
    main()
