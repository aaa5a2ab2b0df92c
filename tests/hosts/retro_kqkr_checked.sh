#!/bin/sh
# A hunt's aid (docs/decisions.md, "Hunts on 4 emulated hosts"): one rank
# of retro KQKR (lang-examples/retro.tcpp) without its sequential check,
# rank 0 comparing the answer with the known one (the push solver's, as in
# tests/endgames). Under mpirun, e.g. through tests/mpi/hunt_hang.sh:
#   tests/mpi/hunt_hang.sh --hosts ... tests/hosts/retro_kqkr_checked.sh build/release/tests/examples/example-retro
# Exit status: the program's, or 1 (and WRONG on stdout) for another answer.
retro=$1
out=$("$retro" --no-check KQKR 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || exit $rc
[ "${OMPI_COMM_WORLD_RANK:-0}" != 0 ] && exit 0
known="retro(KQKR): longest mate 35 moves, 8863768 white-to-move wins, 7062680 black-to-move losses"
printf '%s\n' "$out" | grep -qF "$known" && exit 0
echo "WRONG: not the known KQKR answer ($known)"
exit 1
