#!/usr/bin/env python3
"""What bounds the serial overhead of a spawn point per node: the translated
programs rebuilt against copies of the runtime's headers from which one cost
at a time is removed, timed side by side with the sequential program.

The program is translated with `tascellc --eager` (a lazy @task function,
docs/language.md, writes no point per node to bound), and `built` is the
build's own program, as it is translated by default, side by side.

The variants (each a copy of runtime/include with tascell/dowork.hpp and
tascell/dowork/{parts_site,loop_site,site}.hpp edited; the
programs stay correct only in `base`, which is the real header; the others
are bounds, run with 1 worker, where nobody asks for work and nothing
throws):

  base     the real headers
  nopoll   a @dowork { } does not poll, nor does a @dowork for whose body
           takes a ctx (its iterations still claim)
  notry    a @dowork has no try/catch (no exception or cancellation
           semantics; parts and loops share it, dowork/site.hpp)
  both     nopoll and notry
  serial   no spawn point at all: every @dowork runs as plain code (its
           exec_serial: the parts as calls, the loop as a loop); what is
           left is the ctx parameter and the program's own structure
  lazy     serial, plus what the fast path of lazily made spawn points
           (Tascell's LW-SC route: nothing is written until a request
           comes; the frames save themselves on the way back then) would
           still pay: a poll where the @dowork starts and, after every
           call of a part or of a loop body that takes a ctx, a check
           whether the callee is unwinding (here one more poll: a load and
           a branch). A leaf loop (its body takes no ctx) keeps its real
           point, written once per loop, and its blocks

  python3 bench/bounds/run_bounds.py --build-dir build/release --problems fib:35,lu:512,pen:12 --reps 15

It reads the compile and link commands of <problem>-tcpp from the build's
ninja files (`ninja -t commands`), so the flags are the build's own (-O3),
and changes only the include directory and the output.
"""
import argparse
import os
import pathlib
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))
import ninja_commands  # noqa: E402

PARTS_POLL = """          poll(in);
          first(in);"""
POINT_TRY = """  try {
    work();
  } catch (...) {
    pieces = unwind(in, sp);
    goto merge;
  }
"""
LOOP_POLL = """        p->sp.next = k + 1;
        poll(in);
        cs::call(body, s, in, first + k * step);"""
LOOP_EXEC = """  if (!o.when) [[unlikely]] {
    site::exec_serial(c, r, cl, body);
    return;
  }
  site::exec(c, o, r, cl, body);"""
PARTS_EXEC = """    if (!o.when) [[unlikely]] {
      site::exec_serial(c, co, ps);
      return;
    }
    site::exec(c, o, co, ps);"""
PARTS_LAZY = """    (void)o;
    poll(c);
    [&]<std::size_t... I>(std::index_sequence<I...>) TASCELL_LAMBDA_INLINE {
      ((site::template call_owner<I>(ps, co, c), poll(c)), ...);
    }(std::index_sequence_for<P...>{});"""
LOOP_LAZY = """  if constexpr (site::leaf) {
    site::exec(c, o, r, cl, body);
  } else {
    for (std::int64_t k = 0; k < r.count; ++k) {
      poll(c);
      site::cs::call(body, cl, c, r.first + k * r.step);
      poll(c);
    }
  }"""


# The headers the variants edit (the entry points and the two kinds of
# site), edited as one text with a marker line before each.
HEADERS = ["tascell/dowork.hpp", "tascell/dowork/parts_site.hpp", "tascell/dowork/loop_site.hpp",
           "tascell/dowork/site.hpp"]
MARK = "\n/*@@run_bounds: %s@@*/\n"
MARK_RE = re.compile(r"\n/\*@@run_bounds: (.*?)@@\*/\n")


def join_headers():
    return "".join(MARK % h + (REPO / "runtime" / "include" / h).read_text() for h in HEADERS)


def split_headers(text):
    parts = MARK_RE.split(text)
    return list(zip(parts[1::2], parts[2::2]))


def must_replace(text, old, new, what):
    if old not in text:
        sys.exit(f"run_bounds.py: the headers of @dowork no longer have {what}; update the edit")
    return text.replace(old, new, 1)


def no_poll(text):
    text = must_replace(text, PARTS_POLL, "          first(in);", "the parts' poll")
    return must_replace(text, LOOP_POLL, LOOP_POLL.replace("        poll(in);\n", ""), "the loop's poll")


def drop_try(text):
    """The try block of a point's life (point_life, parts and loops alike)
    becomes a plain call; its handler is dropped."""
    return must_replace(text, POINT_TRY, "  work();\n  if (false) goto merge;\n", "the point's try block")


def variant(text, name):
    if name == "base":
        return text
    if name == "nopoll":
        return no_poll(text)
    if name == "notry":
        return drop_try(text)
    if name == "both":
        return no_poll(drop_try(text))
    if name == "serial":
        text = must_replace(text, PARTS_EXEC, "    (void)o;\n    site::exec_serial(c, co, ps);", "dowork_parts")
        return must_replace(text, LOOP_EXEC, "  (void)o;\n  site::exec_serial(c, r, cl, body);", "dowork_loop")
    if name == "lazy":
        text = must_replace(text, PARTS_EXEC, PARTS_LAZY, "dowork_parts")
        return must_replace(text, LOOP_EXEC, LOOP_LAZY, "dowork_loop")
    sys.exit(f"run_bounds.py: unknown variant {name}")


def commands(build, target):
    """The translate command (tascellc), the compile command of the
    translation and the link command, as argument lists."""
    lines = ninja_commands.commands(build, target)
    compile_cmd = next((l for l in lines if f"{target}.tascell/" in l and " -c " in l), None)
    translate = None
    for l in lines:
        for part in l.split("&&"):
            args = shlex.split(part)
            if args and args[0].endswith("/tascellc") and "-o" in args:
                translate = args
    link = ninja_commands.link_args(build, target)
    if compile_cmd is None or link is None or translate is None:
        sys.exit(f"run_bounds.py: no translate, compile or link command for {target} in {build} (a Ninja build is needed)")
    return translate, shlex.split(compile_cmd), link


def eager_translation(build, cmds, out):
    """The program translated with --eager: every @dowork writes its point
    (these are bounds of the spawn point per node, which a lazy function
    does not write)."""
    translate = list(cmds[0])
    translate.insert(1, "--eager")
    translate[translate.index("-o") + 1] = str(out)
    subprocess.run(translate, check=True, cwd=build)
    return out


def build_variant(build, problem, cmds, name, inc, out_dir, translation):
    _, compile_args, link_args = cmds
    args = list(compile_args)
    args[args.index("-c") + 1] = str(translation)
    include = f"-I{REPO / 'runtime' / 'include'}"
    if include not in args:
        # Otherwise every variant would silently be built against the real headers.
        sys.exit(f"run_bounds.py: the compile command of {problem}-tcpp has no {include}")
    args = [f"-I{inc}" if a == include else a for a in args]
    obj = out_dir / f"{problem}-{name}.o"
    args[args.index("-o") + 1] = str(obj)
    for drop in ("-MD", "-MT", "-MF"):
        while drop in args:
            i = args.index(drop)
            del args[i:i + (1 if drop == "-MD" else 2)]
    subprocess.run(args, check=True, cwd=build)
    link = [str(obj) if a.endswith(f"{problem}-tcpp.cpp.o") else a for a in link_args]
    exe = out_dir / f"{problem}-{name}"
    link[link.index("-o") + 1] = str(exe)
    subprocess.run(link, check=True, cwd=build)
    return exe


def seconds(exe, n):
    env = dict(os.environ, TASCELL_WORKERS="1")
    out = subprocess.run([str(exe), str(n), "1"], check=True, capture_output=True, text=True, env=env).stdout
    return float(out.strip().splitlines()[-1].split("seconds=")[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build/release", help="a configured Ninja build with the bench targets")
    ap.add_argument("--problems", default="fib:35,lu:512")
    ap.add_argument("--variants", default="base,nopoll,notry,both,serial,lazy")
    ap.add_argument("--reps", type=int, default=15)
    a = ap.parse_args()
    build = pathlib.Path(a.build_dir).resolve()
    names = a.variants.split(",")
    problems = [(p.split(":")[0], int(p.split(":")[1])) for p in a.problems.split(",")]
    with tempfile.TemporaryDirectory(prefix="tascell-bounds-") as tmp:
        tmp = pathlib.Path(tmp)
        header = join_headers()
        incs = {}
        for name in names:
            inc = tmp / f"inc-{name}"
            shutil.copytree(REPO / "runtime" / "include", inc)
            for path, text in split_headers(variant(header, name)):
                (inc / path).write_text(text)
            incs[name] = inc
        for problem, n in problems:
            exes = {"seq": build / "bench" / f"{problem}-seq", "built": build / "bench" / f"{problem}-tcpp"}
            cmds = commands(build, f"bench/{problem}-tcpp")
            translation = eager_translation(build, cmds, tmp / f"{problem}-eager.cpp")
            for name in names:
                exes[name] = build_variant(build, problem, cmds, name, incs[name], tmp, translation)
            times = {k: [] for k in exes}
            order = list(exes)
            for r in range(a.reps):
                for k in order[r % len(order):] + order[:r % len(order)]:
                    times[k].append(seconds(exes[k], n))
            seq = statistics.median(times["seq"])
            print(f"{problem}({n}), 1 worker, median of {a.reps} interleaved rounds:")
            for k in order:
                m = statistics.median(times[k])
                print(f"  {k:8s} {m:.4f} s  {m / seq:.2f} x seq")


if __name__ == "__main__":
    main()
