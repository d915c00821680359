#!/usr/bin/env bash
# Benchmark, not a test: linerate's TCP and UDP ping-pong through its agent against sockperf's
# ping-pong, between two hosts made of network namespaces joined by a veth pair.
#
# Host B (198.18.0.2) runs both echo ends, started once: `linerate serve` (with a shared secret, as
# every address but loopback requires) and `sockperf sr`, once for TCP and once for UDP. Host A
# (198.18.0.1) runs the clients in turn (A B A B ...), 64-byte messages for SECONDS each: linerate
# pingpong --peer (client muxer spin, then blocking) and sockperf pp. Prints per protocol the median
# over the rounds of each one's p50 half-RTT and the ratios linerate / sockperf (target <= 1.0).
# Both report half the round trip.
# The agent's echo end waits as its own default (blocking) does; sockperf's server uses epoll.
# The namespaces and the servers are removed on exit, Ctrl-C or error.
#
# Needs: root, ip and ss (iproute2), sockperf (Debian package sockperf), python3, and a built jar
#   (mvn -B -q package -DskipTests). Traffic stays inside the two namespaces.
# Usage: examples/bench/pingpong-netns-vs-sockperf.sh [ROUNDS (default 5)] [SECONDS (default 3)]
#   environment: TRANSPORT (both linerate ends' transport, default nio; native for the JNI socket
#   transport, whose ends wait in a blocking recv only: no spin row)
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup sockperf 3 7101 "$@"
two_hosts 1500
sockperf_port=$((port + 1))
transport=${TRANSPORT:-nio}
muxers=(spin blocking); [ "$transport" = native ] && muxers=(blocking)

head -c 32 /dev/urandom | base64 > "$workdir/secret"
serve_in_b "$workdir/agent.log" java -jar "$jar" serve --transport "$transport" --bind "$addr_b" --port "$port" --secret-file "$workdir/secret"
serve_in_b "$workdir/sockperf-tcp.log" sockperf sr --tcp -i "$addr_b" -p "$sockperf_port"
serve_in_b "$workdir/sockperf-udp.log" sockperf sr -i "$addr_b" -p "$sockperf_port"
listening_in_b -Hltn "$port"
listening_in_b -Hltn "$sockperf_port"
listening_in_b -Hlun "$sockperf_port"

# linerate PROTOCOL MUXER -> p50 half-RTT in usec
linerate_run() {
  local ms=$((secs * 1000))
  in_a java -jar "$jar" pingpong --transport "$transport" --peer "$addr_b:$port" --secret-file "$workdir/secret" --protocol "$1" \
      --sizes 64 --muxer "$2" --minms "$ms" --maxms "$ms" --miniter 1 --maxiter 100000000 \
      --warmupms 1000 --warmupiter 10000 --json \
    | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["detail"]["results"][0]["median"] / 1000.0)'
}

# sockperf PROTOCOL -> p50 half-RTT in usec
sockperf_run() {
  local flag=(); [ "$1" = tcp ] && flag=(--tcp)
  in_a sockperf pp "${flag[@]}" -i "$addr_b" -p "$sockperf_port" -m 64 -t "$secs" 2>&1 \
    | sed -n 's/.*percentile 50\.000 = *\([0-9.]*\).*/\1/p' | head -1
}

echo "two hosts $ns_a ($addr_a) and $ns_b ($addr_b), $rounds rounds of ${secs} s, 64 B" >&2
pingpong_rows " across two namespaces"
