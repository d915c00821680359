#!/usr/bin/env bash
# Benchmark, not a test: linerate's streams through its agent against iperf3's client and server,
# between two hosts made of network namespaces joined by a veth pair.
#
# Host A (198.18.0.1) runs the clients, host B (198.18.0.2) the servers: `linerate serve` (with a
# shared secret, as every address but loopback requires) and `iperf3 -s`, both started once. The
# tools run in turn (A B A B ...) with the same write size and duration; per protocol the script
# prints the median receiver goodput of each and the ratio linerate / iperf3 (target >= 1.0).
#   TCP: 128 KiB writes, unlimited rate.
#   UDP: 1400-byte datagrams, unlimited rate (iperf3 -u -b 0 -l 1400); each round prints the loss
#        both tools report, and linerate's is checked against its own counts
#        (datagrams_sent = datagrams_received + lost).
# The namespaces (linerate-bench-PID-a and -b) and every server are removed on exit, Ctrl-C or error.
#
# Needs: root, ip (iproute2), iperf3 (Debian package iperf3), ss, python3, and a built jar
#   (mvn -B -q package -DskipTests). Traffic stays inside the two namespaces.
# Usage: examples/bench/agent-vs-iperf3.sh [ROUNDS (default 5)] [SECONDS (default 3)] [MTU (default 1500)]
#   environment: TRANSPORT (both linerate ends' transport, default nio; native for the JNI socket transport);
#     GSO=1 with IPERF3_NEW (an iperf3 3.21 or later built from esnet/iperf's public source): UDP only,
#     linerate with --gso (TRANSPORT=native) against IPERF3_NEW's client and server with --gsro
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup iperf3 3 7001 "$@"
two_hosts "${3:-1500}"
transport=${TRANSPORT:-nio} # both linerate ends' transport: nio (default) or native
iperf_port=$((port + 1))
iperf3=iperf3; gso=(); gsro=(); protos=(tcp udp)
if [ "${GSO:-0}" = 1 ]; then
  [ -x "${IPERF3_NEW:-}" ] && "$IPERF3_NEW" --help 2>&1 | grep -q -- --gsro \
    || { echo "GSO=1 needs IPERF3_NEW: an iperf3 with --gsro (3.21 or later)" >&2; exit 2; }
  [ "$transport" = native ] || { echo "GSO=1 needs TRANSPORT=native: the nio transport has no --gso" >&2; exit 2; }
  iperf3=$IPERF3_NEW; gso=(--gso); gsro=(--gsro); protos=(udp)
fi

head -c 32 /dev/urandom | base64 > "$workdir/secret"
serve_in_b "$workdir/agent.log" java -jar "$jar" serve --transport "$transport" --bind "$addr_b" --port "$port" --secret-file "$workdir/secret"
serve_in_b "$workdir/iperf3.log" "$iperf3" -s -J -B "$addr_b" -p "$iperf_port"
listening_in_b -Hltn "$port"
listening_in_b -Hltn "$iperf_port"

iperf3_run() { # proto -> "bits/s received" and, for UDP, "lost%"
  local proto=$1 out
  if [ "$proto" = tcp ]; then
    out=$(in_a "$iperf3" -c "$addr_b" -p "$iperf_port" -t "$secs" -O 1 -l 128K -J)
    echo "$out" | json_field end.sum_received.bits_per_second
  else
    # the receiver's own figures, from the server's report: the client's end.sum joins its own count of
    # datagrams sent after the omitted second with the server's count of lost ones, omitted ones included,
    # and its lost_percent can exceed 100
    out=$(in_a "$iperf3" -c "$addr_b" -p "$iperf_port" -u -b 0 -l 1400 -t "$secs" -O 1 -J --get-server-output "${gsro[@]}")
    echo "$out" | python3 -c 'import json,sys
s=json.load(sys.stdin)["server_output_json"]["end"]["sum_received"]
print(s["bits_per_second"], s["lost_percent"])'
  fi
}

linerate_run() { # proto -> "bits/s received" and, for UDP, "lost%"
  local proto=$1 out
  out=$(in_a java -jar "$jar" stream --transport "$transport" --peer "$addr_b:$port" --secret-file "$workdir/secret" --protocol "$proto" \
    --payload "$([ "$proto" = tcp ] && echo 131072 || echo 1400)" --duration "${secs}s" --warmup 1s --json \
    $([ "$proto" = udp ] && echo "${gso[@]}"))
  if [ "$proto" = tcp ]; then
    echo "$out" | json_field detail.bits_per_second
  else
    local sent recv lost
    sent=$(echo "$out" | json_field detail.datagrams_sent); recv=$(echo "$out" | json_field detail.datagrams_received)
    lost=$(echo "$out" | json_field detail.lost)
    [ $((recv + lost)) -eq "$sent" ] || echo "linerate UDP loss inconsistent: $recv + $lost != $sent" >&2
    echo "$(echo "$out" | json_field detail.bits_per_second) $(echo "$out" | json_field detail.lost_percent)"
  fi
}

echo "two hosts $ns_a ($addr_a) and $ns_b ($addr_b), veth MTU ${3:-1500}, $rounds rounds of ${secs} s" >&2
for proto in "${protos[@]}"; do
  a=(); b=(); al=(); bl=()
  for i in $(seq "$rounds"); do
    read -r ra la <<<"$(linerate_run "$proto")"
    read -r rb lb <<<"$(iperf3_run "$proto")"
    a+=("$ra"); b+=("$rb"); al+=("${la:-0}"); bl+=("${lb:-0}")
    if [ "$proto" = tcp ]; then
      LC_ALL=C printf '%s round %d: linerate %.0f bit/s, iperf3 %.0f bit/s\n' "$proto" "$i" "$ra" "$rb" >&2
    else
      LC_ALL=C printf '%s round %d: linerate %.0f bit/s lost %s%%, iperf3 %.0f bit/s lost %s%%\n' \
        "$proto" "$i" "$ra" "$la" "$rb" "$lb" >&2
    fi
  done
  ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
  LC_ALL=C awk -v p="$proto" -v a="$ma" -v b="$mb" \
    'BEGIN {printf "%s: linerate median %.1f Mbit/s, iperf3 median %.1f Mbit/s, ratio %.3f\n", p, a/1e6, b/1e6, a/b}'
  if [ "$proto" = udp ]; then
    echo "udp: median loss linerate $(printf '%s\n' "${al[@]}" | median)%, iperf3 $(printf '%s\n' "${bl[@]}" | median)%"
  fi
done
