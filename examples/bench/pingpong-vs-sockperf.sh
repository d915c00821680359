#!/usr/bin/env bash
# Benchmark, not a test: linerate's ping-pong against sockperf's on loopback, side by side.
#
# For TCP and UDP with 64-byte messages, runs in turn (alternating, ROUNDS times):
#   linerate pingpong --muxer spin, linerate pingpong --muxer blocking, sockperf pp (defaults),
# and prints per protocol the median over the rounds of each tool's p50 half-RTT and the ratios
# linerate / sockperf. sockperf's ping-pong reports half the round trip, as linerate does by
# default, in usec; linerate's JSON gives ns.
#
# Needs: sockperf (Debian package sockperf), ss (iproute2), python3, and a built jar
#   (mvn -B -q package -DskipTests). Traffic stays on 127.0.0.1.
# Usage: examples/bench/pingpong-vs-sockperf.sh [ROUNDS (default 5)] [SECONDS (default 3)]
#   environment: TRANSPORT (linerate's transport, default nio; native for the JNI socket transport)
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup sockperf 3 5399 "$@"
transport=${TRANSPORT:-nio} # linerate's transport: nio (default) or native

# linerate PROTO MUXER -> p50 half-RTT in usec
linerate_run() {
  local proto=$1 muxer=$2 ms=$((secs * 1000)) out
  out=$(java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -cp "$jar" io.linerate.examples.cli.PingPongCommand --transport "$transport" --protocol "$proto" --sizes 64 \
        --muxer "$muxer" --minms "$ms" --maxms "$ms" --miniter 1 --maxiter 100000000 \
        --warmupms 1000 --warmupiter 10000 --json)
  echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["detail"]["results"][0]["median"] / 1000.0)'
}

# sockperf PROTO -> p50 half-RTT in usec
sockperf_run() {
  local proto=$1 flag=() listen out
  if [ "$proto" = tcp ]; then flag=(--tcp); listen=-Hltn; else listen=-Hlun; fi
  sockperf sr "${flag[@]}" -i 127.0.0.1 -p "$port" >/dev/null 2>&1 & server_pid=$!
  # wait (bounded, 5 s) until the server listens
  wait_listening "$listen"
  out=$(sockperf pp "${flag[@]}" -i 127.0.0.1 -p "$port" -m 64 -t "$secs" 2>&1)
  bench_cleanup; server_pid=
  echo "$out" | sed -n 's/.*percentile 50\.000 = *\([0-9.]*\).*/\1/p' | head -1
}


# the native transport's ends wait inside a blocking recv(2) only: no spin muxer there
muxers=(spin blocking); [ "$transport" = native ] && muxers=(blocking)

pingpong_rows ""
