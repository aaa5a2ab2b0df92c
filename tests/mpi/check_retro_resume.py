#!/usr/bin/env python3
"""Tables that outlive the run (lang-examples/retro.tcpp --tables,
--checkpoint-every) on 2 processes:

  - chaining: KQK and KRK built and saved; KQKR then reads KQK from its
    files (it says so) and writes the same KQKR files, byte for byte, as a
    build that made KQK itself
  - resume: a KQKR build that saves a checkpoint every 5 iterations is
    killed (SIGKILL of one rank) at several points: right after a
    checkpoint, a moment after one, during the setup, at a fixed time;
    run again, it resumes from the last complete
    checkpoint and its final files are byte-identical to an uninterrupted
    build's
  - a damaged checkpoint (a byte of its newest table changed) is named and
    passed over: the build resumes from the one before, same files

usage: check_retro_resume.py MPIEXEC TASCELLXX LANG_EXAMPLES_DIR [--binary RETRO]
(--binary: retro as the build made it, tests/examples; else built here
by tascell++ -O2)
"""
import filecmp
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", TASCELL_WORKERS="1")
FAILED = []


def expect(ok, what, detail=""):
    print("%s: %s" % (what, "ok" if ok else "FAILED"), flush=True)
    if not ok:
        FAILED.append(what)
        if detail:
            print(detail[-3000:], flush=True)


def run(cmd, timeout=300):
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return 124, out + "\n(no end within %d s)" % timeout
    return p.returncode, out


def ranks_of(mpirun_pid):
    r = subprocess.run(["ps", "--ppid", str(mpirun_pid), "-o", "pid="], capture_output=True, text=True)
    return [int(x) for x in r.stdout.split()]


def killed_run(cmd, trigger, rank_index):
    """Runs cmd; when trigger(line, seconds) says so, SIGKILLs one rank
    (rank_index-th child of mpirun). Returns (killed, output)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV,
                         start_new_session=True)
    start = time.monotonic()
    out, killed = [], [False]
    timer = None

    def kill():
        if killed[0] or p.poll() is not None:
            return
        pids = ranks_of(p.pid)
        if pids:
            os.kill(pids[min(rank_index, len(pids) - 1)], signal.SIGKILL)
            killed[0] = True

    at = trigger(None, 0.0)
    if isinstance(at, float):  # a fixed time
        timer = threading.Timer(at, kill)
        timer.start()
    for line in p.stdout:
        out.append(line)
        if not isinstance(at, float) and trigger(line, time.monotonic() - start):
            delay = trigger(line, -1.0)
            if delay:
                time.sleep(delay)
            kill()
    try:
        p.wait(timeout=120)
    except subprocess.TimeoutExpired:
        pass
    if timer:
        timer.cancel()
    try:
        os.killpg(p.pid, signal.SIGKILL)  # whatever of this run is left
    except ProcessLookupError:
        pass
    p.wait()
    return killed[0], "".join(out)


def same_files(a, b):
    names = sorted(os.listdir(a))
    if names != sorted(os.listdir(b)):
        return False
    return all(filecmp.cmp(os.path.join(a, n), os.path.join(b, n), shallow=False) for n in names)


def same_tables(dir_a, dir_b, name):
    return all(same_files(os.path.join(dir_a, name + s), os.path.join(dir_b, name + s)) for s in ("-wtm", "-btm"))


def main():
    mpiexec, tascellxx, examples = sys.argv[1:4]
    built = sys.argv[sys.argv.index("--binary") + 1] if "--binary" in sys.argv else None
    with tempfile.TemporaryDirectory(prefix="tascell-retro-resume-") as tmp:
        binary = built or os.path.join(tmp, "retro")
        if not built:
            subprocess.run([tascellxx, "-O2", os.path.join(examples, "retro.tcpp"), "-o", binary], check=True)
        mpi = [mpiexec, "--oversubscribe", "--bind-to", "none", "-np", "2", binary, "--no-check"]

        # --- chaining ---
        ref = os.path.join(tmp, "ref")
        rc, out = run(mpi + ["--tables", ref, "KQK", "KRK"])
        expect(rc == 0 and "longest mate 10" in out and "longest mate 16" in out, "KQK and KRK built and saved", out)
        rc, out = run(mpi + ["--tables", ref, "KQKR"])
        expect(rc == 0 and "KQK read from" in out and "longest mate 35" in out, "KQKR reads KQK from its files", out)
        plain = os.path.join(tmp, "plain")
        rc, out = run(mpi + ["--tables", plain, "KQKR"])
        expect(rc == 0 and "KQK read from" not in out and "longest mate 35" in out, "KQKR building KQK itself", out)
        expect(same_tables(ref, plain, "KQKR"), "KQKR from KQK's files: the same files as building KQK")
        expect(same_tables(ref, plain, "KQK"), "KQK saved by both: the same files")

        # --- resume after SIGKILL ---
        after = lambda k, delay=0.0: (lambda line, t: delay if t < 0 else
                                      (line is not None and "checkpoint after iteration %d" % k in line))
        at_time = lambda s: (lambda line, t: s)
        in_setup = lambda line, t: 0.05 if t < 0 else (line is not None and "KQK read from" in line)
        points = [("right after checkpoint 9", after(9), 1), ("0.3 s after checkpoint 19", after(19, 0.3), 0),
                  ("during the setup", in_setup, 1), ("at 2.5 s", at_time(2.5), 0)]
        for n, (what, trigger, rank) in enumerate(points):
            d = os.path.join(tmp, "k%d" % n)
            os.makedirs(d)
            for s in ("-wtm", "-btm"):
                shutil.copytree(os.path.join(ref, "KQK" + s), os.path.join(d, "KQK" + s))
            cmd = mpi + ["--tables", d, "--checkpoint-every", "5", "KQKR"]
            killed, out = killed_run(cmd, trigger, rank)
            done = "saved in" in out
            if not killed and done:
                print("kill %s: the build ended first (a fast machine): nothing to resume" % what)
                continue
            expect(killed, "kill %s: a rank killed" % what, out)
            rc, out2 = run(cmd)
            resumed = re.search(r"resumed after iteration (\d+)", out2)
            expect(rc == 0 and "longest mate 35" in out2, "kill %s: the build run again ends (%s)" % (
                what, resumed.group(0) if resumed else "from the start"), out + out2)
            expect(same_tables(ref, d, "KQKR"), "kill %s: the final files are byte-identical" % what)
            if what.startswith("0.3 s"):
                expect(resumed is not None and int(resumed.group(1)) >= 19, "kill %s: resumed from checkpoint 19 or later"
                       % what, out2)

        # --- a damaged checkpoint is passed over ---
        d = os.path.join(tmp, "damaged")
        os.makedirs(d)
        for s in ("-wtm", "-btm"):
            shutil.copytree(os.path.join(ref, "KQK" + s), os.path.join(d, "KQK" + s))
        cmd = mpi + ["--tables", d, "--checkpoint-every", "5", "KQKR"]
        killed, out = killed_run(cmd, after(19), 1)
        expect(killed, "damaged checkpoint: a rank killed after checkpoint 19", out)
        cps = os.path.join(d, "KQKR.checkpoints")
        newest = max((int(x[5:]) for x in os.listdir(cps) if os.path.exists(os.path.join(cps, x, "state"))),
                     default=-1)
        part = os.path.join(cps, "ckpt-%d" % newest, "wtm", "part-1.tcb")
        with open(part, "r+b") as f:
            f.seek(-32, 2)
            index_at, _, _ = struct.unpack("<QQQ", f.read(24))
            f.seek(index_at + 24 * 3)
            offset, stored, _, _ = struct.unpack("<QIIQ", f.read(24))
            f.seek(offset + stored // 2)
            b = f.read(1)
            f.seek(offset + stored // 2)
            f.write(bytes([b[0] ^ 0x10]))
        rc, out2 = run(cmd)
        resumed = re.search(r"resumed after iteration (\d+)", out2)
        expect(rc == 0 and re.search(r"checkpoint %d not used: .*part-1\.tcb': block 3 fails its checksum" % newest, out2)
               and resumed and int(resumed.group(1)) < newest,
               "damaged checkpoint %d: named and passed over (%s)" % (newest, resumed.group(0) if resumed else "-"),
               out2)
        expect(same_tables(ref, d, "KQKR"), "damaged checkpoint: the final files are byte-identical")
    print("%d failed" % len(FAILED))
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
