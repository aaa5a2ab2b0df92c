"""The commands that build a target of a Ninja build (`ninja -t commands`),
for the scripts that rebuild a benchmark with one thing changed:
bounds/run_bounds.py (other headers) and run_matrix.py --placements (the
code moved by a padding object). Standard library only."""
import shlex
import subprocess


def commands(build_root, target):
    """Every command that builds target (its dependencies' first), as shell
    lines without Ninja's `: && ... && :` wrapping; [] if Ninja knows no
    such target."""
    p = subprocess.run(["ninja", "-C", str(build_root), "-t", "commands", target], capture_output=True, text=True)
    if p.returncode != 0:
        return []
    return [l.removeprefix(": && ").removesuffix(" && :") for l in p.stdout.splitlines() if l.strip()]


def link_args(build_root, target):
    """The command that links target (no -c, and -o target), as an argument
    list to run in build_root; None if there is none (e.g. a target made by
    a custom command)."""
    for line in reversed(commands(build_root, target)):
        args = shlex.split(line)
        if "-c" not in args and "-o" in args and args.index("-o") + 1 < len(args) \
                and args[args.index("-o") + 1] == target:
            return args
    return None
