#!/usr/bin/env bash
# mpirun's launch agent for the emulated hosts of emulated_hosts.sh, in place
# of ssh (--mca plm_rsh_agent <this file>):
#
#   netns_agent.sh [-options...] HOST COMMAND WORDS...
#
# HOST is a host's address (169.254.77.(10+K)) or name (tc-hostK). Like ssh,
# the command words are joined with spaces and run by sh, with a fresh
# environment (PATH, HOME, USER, LOGNAME, SHELL, LANG, LD_LIBRARY_PATH kept),
# here inside tc-hostK's network namespace, in a UTS namespace of its own
# with host name tc-hostK, in a mount namespace whose /etc/hosts names the
# emulated hosts (bind-mounted from the state folder; the machine's /etc/hosts
# is not changed), on the host's CPUs: in the host's cpuset cgroup where
# emulated_hosts.sh made one (a process cannot leave its CPUs, not even when
# mpirun binds it), and under taskset.
set -u
STATE=${TASCELL_HOSTS_STATE:-/run/tascell-hosts}
PREFIX=tc-host
NET=169.254.77

fail() { echo "netns_agent: $*" >&2; exit 255; }  # 255: what ssh returns when it cannot connect

if [ "${1:-}" = --inside ]; then
  # Second stage, already inside the host's namespaces (see below).
  name=$2 cpus=$3 cmd=$4
  hostname "$name" || fail "cannot set the host name $name"
  if [ -f "$STATE/hosts" ]; then
    mount --bind "$STATE/hosts" /etc/hosts || fail "cannot bind-mount $STATE/hosts on /etc/hosts"
  fi
  keep=()
  for v in PATH HOME USER LOGNAME SHELL LANG LD_LIBRARY_PATH TASCELL_HOSTS_STATE; do
    [ -n "${!v+x}" ] && keep+=("$v=${!v}")
  done
  exec taskset -c "$cpus" env -i "${keep[@]}" /bin/sh -c "$cmd"
fi

while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done  # ssh-style options: none needed
[ $# -ge 2 ] || fail "usage: netns_agent.sh HOST COMMAND..."
host=$1
shift
case "$host" in
  "$NET".*) k=$((${host##*.} - 10)) ;;
  "$PREFIX"*) k=${host#"$PREFIX"} ;;
  *) fail "unknown host '$host' (not an emulated host: $NET.11.. or ${PREFIX}1..)" ;;
esac
ns=$PREFIX$k
line=$(awk -v k="$k" '$1 == k' "$STATE/hosts.txt" 2>/dev/null)
[ -n "$line" ] || fail "host $host ($ns) is not up (emulated_hosts.sh up N makes it)"
cpus=$(echo "$line" | awk '{print $4}')
cgroup=$(echo "$line" | awk '{print $5}')
if [ -n "$cgroup" ]; then
  echo $$ >"$cgroup/cgroup.procs" || fail "cannot join the cpuset cgroup $cgroup"
fi
exec ip netns exec "$ns" unshare --uts --mount --propagation private "$0" --inside "$ns" "$cpus" "$*"
