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
