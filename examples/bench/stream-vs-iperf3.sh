#!/usr/bin/env bash
# Benchmark, not a test: linerate's TCP and UDP streams against iperf3 on loopback, side by side.
#
# Runs the two tools in turn (A B A B ...) with the same write size and duration and prints, per
# protocol, the median receiver goodput of each and the ratio linerate / iperf3.
#   TCP: 128 KiB writes, unlimited rate.
#   UDP: 1400-byte datagrams, unlimited rate; linerate's loss is checked against its own counts
#        (datagrams_sent = datagrams_received + lost).
#
# Needs: iperf3 (Debian package iperf3), ss (iproute2), python3, and a built jar
#   (mvn -B -q package -DskipTests). Traffic stays on 127.0.0.1.
# Usage: examples/bench/stream-vs-iperf3.sh [ROUNDS (default 5)] [SECONDS (default 3)]
#   environment: TRANSPORT (linerate's transport, default nio; native for the JNI socket transport)
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup iperf3 3 5299 "$@"
transport=${TRANSPORT:-nio}


iperf3_run() { # proto -> bits/s received
  local proto=$1 out
  iperf3 -s -1 -B 127.0.0.1 -p "$port" >/dev/null 2>&1 & server_pid=$!
  # wait (bounded) until the server listens; a probe connection would use up its one test (-1)
  wait_listening -Hltn
  if [ "$proto" = tcp ]; then
    out=$(iperf3 -c 127.0.0.1 -p "$port" -t "$secs" -O 1 -l 128K -J)
    echo "$out" | json_field end.sum_received.bits_per_second
  else
    out=$(iperf3 -c 127.0.0.1 -p "$port" -u -b 0 -l 1400 -t "$secs" -O 1 -J)
    local r; r=$(echo "$out" | json_field end.sum_received.bits_per_second)
    [ -n "$r" ] || r=$(echo "$out" | json_field end.sum.bits_per_second)
    echo "$r"
  fi
  wait "$server_pid" 2>/dev/null || true; server_pid=
}

linerate_run() { # proto -> bits/s received
  local proto=$1 out
  if [ "$proto" = tcp ]; then
    out=$(java -jar "$jar" stream --transport "$transport" --protocol tcp --payload 131072 --duration "${secs}s" --warmup 1s --json)
  else
    out=$(java -jar "$jar" stream --transport "$transport" --protocol udp --payload 1400 --duration "${secs}s" --warmup 1s --json)
    local sent recv lost
    sent=$(echo "$out" | json_field detail.datagrams_sent); recv=$(echo "$out" | json_field detail.datagrams_received)
    lost=$(echo "$out" | json_field detail.lost)
    [ $((recv + lost)) -eq "$sent" ] || echo "linerate UDP loss inconsistent: $recv + $lost != $sent" >&2
    echo "linerate udp: sent $sent received $recv lost $lost" >&2
  fi
  echo "$out" | json_field detail.bits_per_second
}


protos=(tcp udp)
for proto in "${protos[@]}"; do
  a=(); b=()
  for i in $(seq "$rounds"); do
    a+=("$(linerate_run "$proto")")
    b+=("$(iperf3_run "$proto")")
    LC_ALL=C printf '%s round %d: linerate %.0f bit/s, iperf3 %.0f bit/s\n' "$proto" "$i" "${a[-1]}" "${b[-1]}" >&2
  done
  ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
  LC_ALL=C awk -v p="$proto" -v a="$ma" -v b="$mb" \
    'BEGIN {printf "%s: linerate median %.1f Mbit/s, iperf3 median %.1f Mbit/s, ratio %.3f\n", p, a/1e6, b/1e6, a/b}'
done
