#!/usr/bin/env bash
# Several machines, emulated on this one: test hosts as network namespaces.
#
#   emulated_hosts.sh up N              make hosts tc-host1..tc-hostN (2 <= N <= 8)
#   emulated_hosts.sh mpirun ARGS...    mpirun <the hosts' options> ARGS..., on the hosts that are up
#   emulated_hosts.sh down              remove everything `up` made
#   emulated_hosts.sh run N -- ARGS...  up N, mpirun <options> ARGS..., down (also when the
#                                       run fails or is interrupted); exit status: mpirun's
#   emulated_hosts.sh exec N -- CMD...  up N, CMD... (in tc-head) with TASCELL_HOSTS_MPIRUN_ARGS
#                                       set to the options, one per line, down; status: CMD's
#   emulated_hosts.sh mpirun-args       print the options (one per line)
#
# Each host is a network namespace with a UTS (host name) namespace of its
# own. A further namespace, tc-head, holds a bridge that joins the hosts
# (veth pairs) and mpirun, which runs there:
#
#   tc-head:  lo, bridge tc-br0 169.254.77.1/24 (mpirun's end), tc-vethK on the bridge
#   tc-hostK: lo, eth0 (peer of tc-vethK) 169.254.77.(10+K)/24
#
# The machine's own network namespace is not touched: no link, address or
# route is added there, so no other program on the machine sees the hosts'
# links, and no packet leaves the machine (the addresses are link-local, no
# route leads off the bridge, IPv6 is off in these namespaces).
# mpirun starts one orted per host through netns_agent.sh (--mca
# plm_rsh_agent, in place of ssh), which runs it inside the host's namespaces
# with the host's name and CPUs (its cpuset cgroup where there is one, which
# mpirun's binding cannot leave, and taskset): with N hosts and C CPUs, host K
# gets CPUs of its own when N <= C, else CPU (K-1) mod C. MPI uses TCP on
# 169.254.77.0/24 only; processes of different hosts do not share the
# runtime's shared-memory objects (MPI_COMM_TYPE_SHARED splits them apart),
# as on a cluster.
#
# Made and removed by up/down: the namespaces tc-head and tc-host* (with
# their links), a cpuset cgroup tc-hostK per host where the machine has the
# cpuset controller (cgroup v1's /sys/fs/cgroup/cpuset, or v2 with cpuset
# enabled), the folder $STATE (hostfile, hosts file), and /run/netns when `ip
# netns add` made it. Nothing in /etc is changed. down first ends, by pid,
# processes left inside the namespaces (of a run that was cut short). run and
# exec hold a lock (flock on /run/lock) so that two runs do not share the
# hosts.
#
# Exit codes: 0 ok (run/exec/mpirun: the command's status); 2 wrong usage;
# 3 the machine does not allow network namespaces (not root, no CAP_SYS_ADMIN
# or CAP_NET_ADMIN, or no veth/bridge); 4 hosts are already up (run `down`);
# 5 could not get the lock in time.
set -u

STATE=${TASCELL_HOSTS_STATE:-/run/tascell-hosts}
PREFIX=tc-host
HEAD=tc-head
BRIDGE=tc-br0
NET=169.254.77
# A command in tc-head's network namespace only (`ip netns exec` would also
# mount a new /sys, which hides the cgroup folders that the agent needs).
IN_HEAD="nsenter --net=/run/netns/$HEAD"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
AGENT=$HERE/netns_agent.sh

say() { echo "emulated_hosts: $*" >&2; }
made=0  # set by up once it starts making things: then run/exec remove them at the end

# A step of up that must work; if not, remove what was made and stop.
must() {
  local out
  if ! out=$("$@" 2>&1); then
    say "'$*' failed: $out; removing what was made"
    down
    exit 1
  fi
}

usage() {
  sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# The CPUs this script may use, one per line (from its affinity mask).
cpu_list() {
  local spec part a b
  spec=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//')
  [ -n "$spec" ] || spec="0-$(($(nproc) - 1))"
  IFS=, read -ra parts <<<"$spec"
  for part in "${parts[@]}"; do
    if [[ $part == *-* ]]; then
      a=${part%-*}; b=${part#*-}
      seq "$a" "$b"
    else
      echo "$part"
    fi
  done
}

# CPUs of host K (1-based) of N, as a taskset list.
host_cpus() {
  local k=$1 n=$2 cpus c per first
  mapfile -t cpus < <(cpu_list)
  c=${#cpus[@]}
  if [ "$n" -le "$c" ]; then
    per=$((c / n)); first=$(((k - 1) * per))
    local IFS=,; echo "${cpus[*]:first:per}"
  else
    echo "${cpus[$(((k - 1) % c))]}"
  fi
}

# Namespaces of ours (tc-head, then the hosts).
our_namespaces() {
  ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^(${HEAD}|${PREFIX}[0-9]+)$"
}

existing() {  # namespaces and cpusets of ours that exist now
  our_namespaces
  local cg
  cg=$(cpuset_root)
  [ -n "$cg" ] && ls -d "$cg/$PREFIX"[0-9]* 2>/dev/null
}

# The cpuset cgroup hierarchy where a host's CPUs can be held (so that no
# process of the host, mpirun's binding included, can leave them): cgroup v1's
# cpuset folder, or cgroup v2's root when the cpuset controller is already
# enabled for its children. Empty when there is none (then taskset alone).
cpuset_root() {
  if [ -f /sys/fs/cgroup/cpuset/cpuset.cpus ] && [ -f /sys/fs/cgroup/cpuset/tasks ]; then
    echo /sys/fs/cgroup/cpuset
  elif grep -qw cpuset /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    echo /sys/fs/cgroup
  fi
}

down() {
  local ns pid pids rc=0 cg dir
  for ns in $(our_namespaces); do
    # Processes left inside (mpirun or an orted of a run that was cut short):
    # started in our namespace, so ours; ended by pid before the namespace goes.
    pids=$(ip netns pids "$ns" 2>/dev/null)
    if [ -n "$pids" ]; then
      say "ending processes left in $ns: $(echo $pids)"
      for pid in $pids; do kill -TERM "$pid" 2>/dev/null; done
      sleep 1
      for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    fi
  done
  for ns in $(our_namespaces); do
    ip netns del "$ns" || rc=1  # (its links go with it, the veth peers in the other namespace too)
  done
  cg=$(cpuset_root)
  for dir in $( [ -n "$cg" ] && ls -d "$cg/$PREFIX"[0-9]* 2>/dev/null); do
    for pid in $(cat "$dir/cgroup.procs" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null; done
    for _ in 1 2 3 4 5 6 7 8 9 10; do rmdir "$dir" 2>/dev/null && break; sleep 0.2; done
  done
  [ -e "$STATE/made-run-netns" ] && forget_netns_dir
  rm -rf "$STATE"
  for _ in 1 2 3 4 5; do [ -z "$(existing)" ] && break; sleep 0.2; done
  if [ -n "$(existing)" ]; then
    say "could not remove: $(existing | tr '\n' ' ')"
    rc=1
  fi
  return $rc
}

# /run/netns, which `ip netns add` makes (a bind mount of itself) when it is
# missing: removed again when up made it and no namespace is left in it.
forget_netns_dir() {
  if [ -d /run/netns ] && [ -z "$(ls -A /run/netns 2>/dev/null)" ]; then
    umount /run/netns 2>/dev/null
    rmdir /run/netns 2>/dev/null
  fi
}

# No IPv6 in namespace $1 (its links would announce themselves, e.g. MLD
# reports, on the bridge): these hosts speak IPv4 on 169.254.77.0/24 only.
no_ipv6() {
  ip netns exec "$1" sh -c 'for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 \
    /proc/sys/net/ipv6/conf/default/disable_ipv6 /proc/sys/net/ipv6/conf/lo/disable_ipv6; do
    [ -e "$f" ] && echo 1 > "$f"; done; true'
}

# The machine allows what up needs? One clear sentence and exit 3 if not.
check_allowed() {
  local why=""
  if [ "$(id -u)" != 0 ]; then
    why="this script must run as root"
  elif ! command -v ip >/dev/null || ! command -v unshare >/dev/null || ! command -v taskset >/dev/null; then
    why="ip (iproute2), unshare and taskset (util-linux) are needed"
  elif ! out=$(ip netns add "${PREFIX}-probe" 2>&1); then
    why="'ip netns add' failed ($out): no CAP_SYS_ADMIN/CAP_NET_ADMIN here"
  else
    # (inside the probe's namespace: nothing is made in the machine's own)
    if ! out=$(ip netns exec "${PREFIX}-probe" unshare --uts true 2>&1); then
      why="'unshare --uts' failed inside a network namespace ($out)"
    elif ! out=$(ip -n "${PREFIX}-probe" link add tc-probe0 type veth peer name tc-probe1 2>&1); then
      why="'ip link add ... type veth' failed ($out)"
    elif ! out=$(ip -n "${PREFIX}-probe" link add tc-probe2 type bridge 2>&1); then
      why="'ip link add ... type bridge' failed ($out)"
    fi
    ip netns del "${PREFIX}-probe" 2>/dev/null
  fi
  [ "$1" = 1 ] || forget_netns_dir
  if [ -n "$why" ]; then
    say "this machine does not allow emulated hosts: $why."
    exit 3
  fi
}

up() {
  local n=$1 k ns veth addr cpus
  [[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 2 ] && [ "$n" -le 8 ] || { say "N must be 2..8, not '$n'"; exit 2; }
  if [ -n "$(existing)" ] || [ -e "$STATE" ]; then
    say "hosts are already up ($(existing | tr '\n' ' ')$STATE); run '$0 down' first"
    exit 4
  fi
  local had_netns_dir=0
  [ -d /run/netns ] && had_netns_dir=1
  check_allowed "$had_netns_dir"
  made=1
  mkdir -p "$STATE" || { say "cannot make $STATE"; exit 1; }
  [ "$had_netns_dir" = 1 ] || : >"$STATE/made-run-netns"
  must ip netns add "$HEAD"
  no_ipv6 "$HEAD"
  must ip -n "$HEAD" link set lo up
  must ip -n "$HEAD" link add "$BRIDGE" type bridge
  must ip -n "$HEAD" link set dev "$BRIDGE" addrgenmode none
  must ip -n "$HEAD" addr add "$NET.1/24" dev "$BRIDGE"
  must ip -n "$HEAD" link set "$BRIDGE" up
  : >"$STATE/hostfile"
  printf '127.0.0.1 localhost\n' >"$STATE/hosts"
  local cg held=taskset
  cg=$(cpuset_root)
  for k in $(seq 1 "$n"); do
    ns=$PREFIX$k; veth=tc-veth$k; addr=$NET.$((10 + k))
    cpus=$(host_cpus "$k" "$n")
    if [ -n "$cg" ]; then
      must mkdir "$cg/$ns"
      if [ -f "$cg/$ns/cpuset.mems" ] && [ -z "$(cat "$cg/$ns/cpuset.mems")" ]; then  # v1: empty until set
        must cp "$cg/cpuset.mems" "$cg/$ns/cpuset.mems"
      fi
      must sh -c "echo $cpus > '$cg/$ns/cpuset.cpus'"
      held="a cpuset cgroup and taskset"
    fi
    must ip netns add "$ns"
    no_ipv6 "$ns"
    must ip -n "$HEAD" link add "$veth" type veth peer name eth0 netns "$ns"
    must ip -n "$HEAD" link set dev "$veth" addrgenmode none
    must ip -n "$HEAD" link set "$veth" master "$BRIDGE"
    must ip -n "$HEAD" link set "$veth" up
    must ip -n "$ns" link set dev eth0 addrgenmode none
    must ip -n "$ns" addr add "$addr/24" dev eth0
    must ip -n "$ns" link set eth0 up
    must ip -n "$ns" link set lo up
    echo "$addr slots=$(($(tr -cd , <<<"$cpus" | wc -c) + 1))" >>"$STATE/hostfile"
    echo "$addr $ns" >>"$STATE/hosts"
    echo "$k $ns $addr $cpus ${cg:+$cg/$ns}" >>"$STATE/hosts.txt"
  done
  # Each host reaches tc-head (and so the others) over the bridge.
  if command -v ping >/dev/null; then
    for k in $(seq 1 "$n"); do
      ip netns exec "$PREFIX$k" ping -q -c 1 -W 2 "$NET.1" >/dev/null 2>&1 ||
        { say "$PREFIX$k cannot reach $NET.1 over the bridge; removing the hosts"; down; exit 1; }
    done
  fi
  say "up: $(awk '{printf "%s %s CPUs %s; ", $2, $3, $4}' "$STATE/hosts.txt")CPUs held by $held; hostfile $STATE/hostfile"
}

# --bind-to none: mpirun maps by the whole machine's cores, not a host's (its
# default binding put both hosts' processes on core 0 under taskset alone;
# --bind-to core fails on the second host inside the cpusets).
# --leave-session-attached: an orted that daemonizes starts a session of its
# own, and Linux's autogroup scheduler gives every session an equal share of
# a busy machine: the hosts' processes would then get more CPU than the
# processes of a run on this machine beside them. Attached, they share the
# session (and the share) of the command that started mpirun.
mpirun_args() {
  [ -f "$STATE/hostfile" ] || { say "no hosts are up"; exit 2; }
  printf '%s\n' --hostfile "$STATE/hostfile" --map-by node \
    --mca plm_rsh_agent "$AGENT" --mca plm_rsh_no_tree_spawn 1 \
    --mca btl self,tcp --mca btl_tcp_if_include "$NET.0/24" --mca oob_tcp_if_include "$NET.0/24" \
    --bind-to none --leave-session-attached
}

lock() {
  { exec 9</run/lock; } 2>/dev/null || exec 9</tmp
  if ! flock -w "${TASCELL_HOSTS_LOCK_WAIT:-900}" 9; then
    say "another run holds the emulated hosts (flock on /run/lock) and did not let go in time"
    exit 5
  fi
}

cmd=${1:-}
shift || true
case "$cmd" in
  up) [ $# -eq 1 ] || usage; up "$1" ;;
  down) [ $# -eq 0 ] || usage; down ;;
  mpirun-args) mpirun_args ;;
  mpirun)
    mapfile -t margs < <(mpirun_args)
    [ ${#margs[@]} -gt 0 ] || exit 2
    exec $IN_HEAD mpirun "${margs[@]}" "$@"
    ;;
  run | exec)
    [ $# -ge 3 ] && [ "$2" = -- ] || usage
    n=$1; shift 2
    lock
    trap '[ "$made" = 1 ] && down' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    # Holding the lock, hosts that are up with no process in them were left
    # by a run that was killed (as ctest kills at its TIMEOUT): remove them.
    if { [ -n "$(existing)" ] || [ -e "$STATE" ]; } &&
       [ -z "$(for ns in $(our_namespaces); do ip netns pids "$ns"; done)" ]; then
      say "removing hosts left up with no process in them: $(existing | tr '\n' ' ')"
      down || exit 4
    fi
    up "$n"
    mapfile -t margs < <(mpirun_args)
    # The command runs in the background of this shell (its standard input
    # kept), so that a signal to this script ends it, by its pid, and the
    # hosts are then removed.
    if [ "$cmd" = run ]; then
      $IN_HEAD mpirun "${margs[@]}" "$@" <&0 &
    else
      TASCELL_HOSTS_MPIRUN_ARGS=$(printf '%s\n' "${margs[@]}") $IN_HEAD "$@" <&0 &
    fi
    child=$!
    trap 'kill -TERM $child 2>/dev/null; wait $child; exit 130' INT
    trap 'kill -TERM $child 2>/dev/null; wait $child; exit 143' TERM
    wait $child
    exit $?
    ;;
  *) usage ;;
esac
