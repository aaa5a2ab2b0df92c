#!/usr/bin/env python3
"""Table files (tascell/table_file.hpp) saved on some number of processes
and loaded on others, probed without loading, read by tascell-table, and
damaged: each kind of damage is named (file, block) at load and by
`tascell-table verify`, and never used.

  - save on 2 processes, load on 1, 2 and 3 (both spreads); save on 1 and
    on 3, load on 2 and 1: every process checks each entry it holds and a
    loop over the indices sums them (tests/mpi/table_files.cpp)
  - probing on one process, through a cache that holds every block and one
    that holds two (cold: the second pass reads blocks again)
  - tascell-table info, get (against the known entry), histogram (the
    known counts), verify of a sound table
  - damage, each to a copy: a flipped byte in a block, in a part's header,
    in the block index, in the table header; a truncated part; a missing
    part; a part of another save; a missing header (a save that did not
    finish); a table loaded as another entry type; a save inside a root
    call (refused: saving is collective)
  - LZ4 in byte planes: saved on 2, loaded on 1 and 3, a damaged block
    named at load and by verify

usage: check_table_files.py MPIEXEC TABLE_FILES TASCELL_TABLE
"""
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile

N = 100003  # not a multiple of the block, nor of 2 or 3
BLOCK_BYTES = 4096  # 512 entries of 8 bytes a block: many blocks


def run(cmd, timeout=120):
    """Runs cmd in its own process group; kills that group on a timeout."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return 124, out, err + "\n(no end within %d s)" % timeout
    return p.returncode, out, err


class Checks:
    def __init__(self):
        self.failed = 0

    def expect(self, ok, what, detail=""):
        print("%s: %s" % (what, "ok" if ok else "FAILED"))
        if not ok:
            self.failed += 1
            if detail:
                print(detail[-3000:])


def expected(i):
    return (i * 2654435761) & 0xFFFFFFFF, i % 7


def main():
    mpiexec, prog, tool = sys.argv[1:4]
    # --fewer (the sanitizer builds): the hashed spread only, saved on 2
    # and 3 processes and loaded on 1 and 3, 2, and damaged files loaded on
    # 2 processes only; the release build runs every case.
    fewer = "--fewer" in sys.argv[4:]
    c = Checks()

    def mpi(np, *args, timeout=120):
        return run([mpiexec, "--oversubscribe", "-np", str(np), prog] + list(args), timeout=timeout)

    tmp = tempfile.mkdtemp(prefix="tascell-table-files-")
    try:
        # --- save on P, load on Q ---
        for spread in (("hashed",) if fewer else ("block", "hashed")):
            for save_np, load_nps in (((2, (1, 3)), (3, (2,))) if fewer else
                                      ((2, (1, 2, 3)), (1, (2,)), (3, (1, 2)))):
                d = os.path.join(tmp, "%s-%d" % (spread, save_np))
                rc, out, err = mpi(save_np, "save", d, "--n", str(N), "--spread", spread, "--block-bytes",
                                   str(BLOCK_BYTES))
                c.expect(rc == 0 and "OK saved" in out, "save %s on %d" % (spread, save_np), out + err)
                parts = sorted(f for f in os.listdir(d) if f.endswith(".tcb"))
                c.expect(parts == ["part-%d.tcb" % r for r in range(save_np)],
                         "save %s on %d: one part per process" % (spread, save_np), str(parts))
                for load_np in load_nps:
                    rc, out, err = mpi(load_np, "load", d)
                    held = [int(m) for m in re.findall(r"OK rank \d+ loaded (\d+) of %d" % N, out)]
                    c.expect(rc == 0 and len(held) == load_np and sum(held) == N and "WRONG" not in err,
                             "save %s on %d, load on %d (entries held: %s)" % (spread, save_np, load_np, held),
                             out + err)
        sound = os.path.join(tmp, "hashed-2")

        # --- probing ---
        rc, out, err = mpi(1, "probe", sound, "--cache", "256")
        m = re.search(r"OK probed (\d+) gets, (\d+) hits, (\d+) blocks read", out)
        blocks = -(-N // (BLOCK_BYTES // 8)) + 1  # blocks of both parts (each part ends in a short one)
        c.expect(rc == 0 and m and int(m.group(3)) <= blocks and int(m.group(2)) >= 2 * N - blocks,
                 "probe with a warm cache (%s)" % (m.group(0) if m else "no figures"), out + err)
        rc, out, err = mpi(1, "probe", sound, "--cache", "2")
        m = re.search(r"OK probed (\d+) gets, (\d+) hits, (\d+) blocks read", out)
        c.expect(rc == 0 and m and int(m.group(3)) > 2 * blocks,
                 "probe with a cold cache of 2 blocks (%s)" % (m.group(0) if m else "no figures"), out + err)

        # --- tascell-table ---
        rc, out, err = run([tool, "info", sound])
        c.expect(rc == 0 and re.search(r"entries\s+%d" % N, out) and "hashed" in out and "part-1.tcb" in out
                 and "entry type" in out, "tascell-table info", out + err)
        for i in (0, 1, 77777, N - 1):
            a, b = expected(i)
            rc, out, err = run([tool, "get", sound, str(i), "--as", "u32"])
            rc2, out2, err2 = run([tool, "get", sound, str(i), "--as", "u8", "--offset", "4"])
            c.expect(rc == 0 and "u32 at 0: %d)" % a in out and rc2 == 0 and "u8 at 4: %d)" % b in out2,
                     "tascell-table get %d" % i, out + err + out2 + err2)
        rc, out, err = run([tool, "histogram", sound, "--as", "u8", "--offset", "4"])
        want = {v: sum(1 for i in range(N) if i % 7 == v) for v in range(7)}
        got = {int(a): int(b) for a, b in re.findall(r"^(\d+) (\d+)$", out, re.M)}
        c.expect(rc == 0 and got == want, "tascell-table histogram", out + err)
        rc, out, err = run([tool, "verify", sound])
        c.expect(rc == 0 and "sound" in out, "tascell-table verify of a sound table", out + err)
        rc, out, err = run([tool, "get", sound, "0"])
        c.expect(rc == 0 and re.search(r"entry 0: 00 00 00 00 00", out), "tascell-table get: the bytes", out + err)

        # --- damage ---
        def damaged(name, change, source=None):
            d = os.path.join(tmp, "damaged-" + name)
            shutil.copytree(source or sound, d)
            change(d)
            return d

        def flip(path, offset):
            with open(path, "r+b") as f:
                f.seek(offset)
                b = f.read(1)
                f.seek(offset)
                f.write(bytes([b[0] ^ 0x20]))

        def index_of(path):
            with open(path, "rb") as f:
                f.seek(-32, 2)
                at, blocks, _ = struct.unpack("<QQQ", f.read(24))
                f.seek(at)
                return [struct.unpack("<QIIQ", f.read(24)) for _ in range(blocks)]

        part1 = lambda d: os.path.join(d, "part-1.tcb")
        other = os.path.join(tmp, "other-save")
        mpi(2, "save", other, "--n", str(N), "--spread", "hashed", "--block-bytes", str(BLOCK_BYTES), "--salt", "1")

        def block_byte(d):
            offset, stored, _, _ = index_of(part1(d))[5]
            flip(part1(d), offset + stored // 2)

        cases = [
            # name, the change, what load and verify must say
            ("block", block_byte, r"part-1\.tcb': block 5 fails its checksum"),
            ("part-header", lambda d: flip(part1(d), 20), r"part-1\.tcb': fails the checksum of its header"),
            ("index", lambda d: flip(part1(d), os.path.getsize(part1(d)) - 32 - 24 * 3 + 9),
             r"part-1\.tcb': fails the checksum of its block index"),
            ("table-header", lambda d: flip(os.path.join(d, "table.tct"), 40),
             r"table\.tct': fails its checksum"),
            ("truncated", lambda d: os.truncate(part1(d), os.path.getsize(part1(d)) - 1000),
             r"part-1\.tcb': is truncated"),
            ("missing-part", lambda d: os.remove(part1(d)), r"part-1\.tcb': is missing"),
            ("another-save", lambda d: shutil.copy(os.path.join(other, "part-1.tcb"), part1(d)),
             r"part-1\.tcb': belongs to another save"),
            ("no-header", lambda d: os.remove(os.path.join(d, "table.tct")),
             r"table\.tct' is missing: the save did not complete"),
        ]
        for name, change, pattern in cases:
            d = damaged(name, change)
            for np in ((2,) if fewer else (1, 2)):
                rc, out, err = load_err = mpi(np, "load", d)
                named = re.findall(pattern, err)
                c.expect(rc == 3 and len(named) >= np and "OK rank" not in out,
                         "damage '%s': load on %d names it (%d of %d processes)" % (name, np, len(named), np),
                         out + err)
            rc, out, err = run([tool, "verify", d])
            c.expect(rc == 1 and re.search(pattern, out), "damage '%s': tascell-table verify names it" % name,
                     out + err)
            if name == "block":
                # The error carries the file and the block.
                c.expect(re.search(r"table_file_error: \S*part-1\.tcb: 5: ", load_err[2]) is not None,
                         "damage 'block': table_file_error's file() and block()", load_err[2])
                rc, out, err = mpi(1, "probe", d)
                c.expect(rc == 3 and re.search(pattern, err), "damage 'block': probing names it", out + err)

        # --- LZ4 in byte planes (the checkpoints' codec): saved on 2, loaded
        # on 1 and 3, a damaged block named ---
        lz = os.path.join(tmp, "lz4")
        rc, out, err = mpi(2, "save", lz, "--n", str(N), "--spread", "hashed", "--block-bytes", str(BLOCK_BYTES),
                           "--codec", "lz4")
        c.expect(rc == 0 and "OK saved" in out, "save with LZ4 on 2", out + err)
        rc, out, err = run([tool, "info", lz])
        c.expect(rc == 0 and "blocks compressed with lz4+planes" in out, "tascell-table info names LZ4 in planes",
                 out + err)
        for load_np in (1, 3):
            rc, out, err = mpi(load_np, "load", lz)
            held = [int(m) for m in re.findall(r"OK rank \d+ loaded (\d+) of %d" % N, out)]
            c.expect(rc == 0 and len(held) == load_np and sum(held) == N and "WRONG" not in err,
                     "LZ4 saved on 2, loaded on %d (entries held: %s)" % (load_np, held), out + err)
        d = damaged("lz4-block", block_byte, lz)
        rc, out, err = mpi(2, "load", d)
        pattern = r"part-1\.tcb': block 5 fails its checksum"
        c.expect(rc == 3 and len(re.findall(pattern, err)) >= 2, "damage to an LZ4 block: load names it", out + err)
        rc, out, err = run([tool, "verify", d])
        c.expect(rc == 1 and re.search(pattern, out), "damage to an LZ4 block: tascell-table verify names it",
                 out + err)

        rc, out, err = mpi(1, "save_inside", os.path.join(tmp, "inside"))
        c.expect(rc == 0 and "OK refused" in out and "inside parallel work" in out
                 and not os.path.exists(os.path.join(tmp, "inside")), "save inside a root call is refused", out + err)
        rc, out, err = mpi(2, "wrong_type", sound)
        c.expect(rc == 3 and len(re.findall(r"holds entries of type '\S+' \(8 bytes\); this table's type is 'm' "
                                            r"\(8 bytes\)", err)) >= 2, "load as another entry type", out + err)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failed" % c.failed)
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
