# Shared by the peer comparison scripts: sourced, not run. Sets rounds, secs, port and jar from
# the script's arguments and environment, checks the peer tool and the jar, and kills a started
# server on exit.
# Usage: bench_setup PEER_TOOL DEFAULT_SECONDS DEFAULT_PORT "$@"

bench_setup() {
  local tool=$1 default_secs=$2 default_port=$3
  shift 3
  cd "$(dirname "${BASH_SOURCE[0]}")/../.."
  rounds=${1:-5}
  secs=${2:-$default_secs}
  port=${LINERATE_BENCH_PORT:-$default_port}
  jar=examples/target/linerate.jar
  command -v "$tool" >/dev/null || { echo "$tool is not installed: apt-get install $tool" >&2; exit 2; }
  [ -f "$jar" ] || { echo "$jar is missing: run mvn -B -q package -DskipTests first" >&2; exit 2; }
  [ "$rounds" -ge 1 ] || { echo "ROUNDS $rounds is out of range; allowed: >= 1" >&2; exit 2; }
  server_pid=
  trap bench_cleanup EXIT
}

bench_cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
}

# wait_listening SS_FLAGS: up to 5 s until something listens on $port (ss -Hltn for TCP, -Hlun for
# UDP); a probe connection would use up a one-test server (iperf3 -s -1)
wait_listening() {
  for _ in $(seq 50); do [ -n "$(ss "$1" "sport = :$port")" ] && return 0; sleep 0.1; done
  echo "nothing listens on port $port after 5 s" >&2
  return 1
}

# median of the numbers on stdin, one per line
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# col N: the N-th whitespace-separated column of stdin
col() { awk -v c="$1" '{print $c}'; }

# json_field A.B.C: that field of the JSON document on stdin, or an empty line
json_field() { python3 -c 'import json,sys
d=json.load(sys.stdin)
for k in sys.argv[1].split("."):
    d=d.get(k) if isinstance(d,dict) else None
    if d is None: break
print(d if d is not None else "")' "$1"; }

# two_hosts MTU: host A (198.18.0.1 in namespace linerate-bench-PID-a) and host B (198.18.0.2 in
# linerate-bench-PID-b), joined by a veth pair with that MTU. Sets ns_a, ns_b, addr_a, addr_b, pids
# (add every background process to it) and workdir; on exit, Ctrl-C or error, kills the processes in
# pids and removes both namespaces and workdir.
two_hosts() {
  local mtu=$1
  [ "$(id -u)" -eq 0 ] || { echo "making network namespaces needs root" >&2; exit 2; }
  command -v ip >/dev/null || { echo "ip is not installed: apt-get install iproute2" >&2; exit 2; }
  [ "$mtu" -ge 1280 ] && [ "$mtu" -le 65535 ] || { echo "MTU $mtu is out of range; allowed: 1280..65535" >&2; exit 2; }
  ns_a=linerate-bench-$$-a
  ns_b=linerate-bench-$$-b
  addr_a=198.18.0.1
  addr_b=198.18.0.2
  pids=()
  workdir=$(mktemp -d)
  trap two_hosts_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  ip netns add "$ns_a"
  ip netns add "$ns_b"
  ip -n "$ns_a" link add lr-a type veth peer name lr-b netns "$ns_b"
  ip -n "$ns_a" link set lo up
  ip -n "$ns_b" link set lo up
  ip -n "$ns_a" link set lr-a mtu "$mtu" up
  ip -n "$ns_b" link set lr-b mtu "$mtu" up
  ip -n "$ns_a" addr add "$addr_a/24" dev lr-a
  ip -n "$ns_b" addr add "$addr_b/24" dev lr-b
}

two_hosts_cleanup() {
  local p
  bench_cleanup
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  ip netns del "$ns_a" 2>/dev/null || true
  ip netns del "$ns_b" 2>/dev/null || true
  rm -rf "$workdir"
}

in_a() { ip netns exec "$ns_a" "$@"; }
in_b() { ip netns exec "$ns_b" "$@"; }

# serve_in_b LOG COMMAND...: start COMMAND in host B in the background, output to LOG, its pid in
# pids (ip netns exec execs into COMMAND, so that pid is the command's own)
serve_in_b() {
  local log=$1
  shift
  ip netns exec "$ns_b" "$@" >"$log" 2>&1 &
  pids+=($!)
}

# listening_in_b SS_FLAGS PORT: up to 10 s until something listens on PORT in host B (ss -Hltn for
# TCP, -Hlun for UDP; a JVM may start slowly)
listening_in_b() {
  for _ in $(seq 100); do [ -n "$(in_b ss "$1" "sport = :$2")" ] && return 0; sleep 0.1; done
  echo "nothing listens on port $2 in host B after 10 s" >&2
  return 1
}

# pingpong_rows WHERE: for tcp and then udp, ROUNDS rounds of linerate_run PROTOCOL MUXER for each
# of the caller's muxers and sockperf_run PROTOCOL (both the caller's, each printing one p50 half-RTT
# in us), then per protocol the medians and the ratios linerate / sockperf; WHERE follows "64 B" in
# the summary (such as " across two namespaces")
pingpong_rows() {
  local where=$1 proto i m v line mp mm summary sp
  for proto in tcp udp; do
    local -A runs=(); sp=()
    for i in $(seq "$rounds"); do
      line="$proto round $i: p50 half-RTT"
      for m in "${muxers[@]}"; do
        v=$(linerate_run "$proto" "$m"); runs[$m]+="$v "
        line+=$(LC_ALL=C printf ' linerate %s %s %.3f us,' "$transport" "$m" "$v")
      done
      sp+=("$(sockperf_run "$proto")")
      LC_ALL=C printf '%s sockperf %.3f us\n' "$line" "${sp[-1]}" >&2
    done
    mp=$(printf '%s\n' "${sp[@]}" | median)
    summary="$proto 64 B$where, median of $rounds rounds, p50 half-RTT:"
    for m in "${muxers[@]}"; do
      mm=$(printf '%s\n' ${runs[$m]} | median)
      summary+=$(LC_ALL=C awk -v t="$transport" -v m="$m" -v a="$mm" -v k="$mp" \
        'BEGIN {printf " linerate %s %s %.3f us (ratio %.3f),", t, m, a, a/k}')
    done
    LC_ALL=C printf '%s sockperf %.3f us\n' "$summary" "$mp"
    unset runs
  done
}
