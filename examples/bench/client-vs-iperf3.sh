#!/usr/bin/env bash
# Benchmark, not a test: linerate's iperf3 client against iperf3's own client, both driving the same
# unmodified iperf3 server, on loopback or between two hosts made of network namespaces.
#
# The two clients run in turn (A B A B ...) with the same write size, rate and duration; per test
# the script prints the median goodput the server received from each, and the ratio linerate /
# iperf3 (target >= 1.0). Both figures are the server's own count, as it reports it to its client.
#   TCP: 128 KiB writes, unlimited rate.
#   UDP: 1400-byte datagrams at 1 Gbit/s (iperf3 -u -b 1G -l 1400); each round also prints the
#        loss the server counted for each client (target: linerate's no higher).
# WHERE: loopback (server on 127.0.0.1) or netns (server in host B at 198.18.0.2, the clients in
# host A; both namespaces are removed on exit, Ctrl-C or error).
#
# Needs: iperf3 (Debian package iperf3), ss (iproute2), python3, a built jar
#   (mvn -B -q package -DskipTests), and root for netns.
# Usage: examples/bench/client-vs-iperf3.sh [ROUNDS (default 5)] [SECONDS (default 3)] [WHERE (default loopback)]
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup iperf3 3 5401 "$@"
where=${3:-loopback}
case "$where" in
  loopback) server=127.0.0.1; client() { "$@"; }
            iperf3 -s -J -B "$server" -p "$port" >/dev/null 2>&1 & server_pid=$!
            wait_listening -Hltn ;;
  netns)    two_hosts 1500; server=$addr_b; client() { in_a "$@"; }
            serve_in_b /dev/null iperf3 -s -J -B "$server" -p "$port"
            listening_in_b -Hltn "$port" ;;
  *) echo "WHERE '$where' is not known; allowed: loopback, netns" >&2; exit 2 ;;
esac

udp_args=(-u -b 1G -l 1400)

iperf3_run() { # proto -> "bits/s the server received" and, for UDP, "lost%"
  local proto=$1 out
  if [ "$proto" = tcp ]; then
    out=$(client iperf3 -c "$server" -p "$port" -t "$secs" -l 128K -J)
    echo "$out" | json_field end.sum_received.bits_per_second
  else
    out=$(client iperf3 -c "$server" -p "$port" "${udp_args[@]}" -t "$secs" -J --get-server-output)
    echo "$out" | python3 -c 'import json,sys
s=json.load(sys.stdin)["server_output_json"]["end"]["sum_received"]
print(s["bits_per_second"], s["lost_percent"])'
  fi
}

linerate_run() { # proto -> "bits/s the server received" and, for UDP, "lost%"
  local proto=$1 out args=(--protocol "$proto" --payload 131072)
  [ "$proto" = udp ] && args=(--protocol udp --payload 1400 --rate 1G)
  out=$(client java -jar "$jar" stream --peer "$server:$port" --peer-protocol iperf3 "${args[@]}" \
    --duration "${secs}s" --json)
  echo "$out" | python3 -c 'import json,sys
d=json.load(sys.stdin)
m={x["name"].split("_")[-1]: x["value"] for x in d["metrics"] if x["host"] == "remote"}
print(m["mbps"] * 1e6, m.get("pct", ""))'
}

echo "iperf3 server at $server:$port ($where), $rounds rounds of ${secs} s" >&2
for proto in tcp udp; do
  a=(); b=(); al=(); bl=()
  for i in $(seq "$rounds"); do
    read -r ra la <<<"$(linerate_run "$proto")"
    read -r rb lb <<<"$(iperf3_run "$proto")"
    a+=("$ra"); b+=("$rb"); al+=("${la:-0}"); bl+=("${lb:-0}")
    LC_ALL=C printf '%s round %d: linerate %.0f bit/s lost %s%%, iperf3 %.0f bit/s lost %s%%\n' \
      "$proto" "$i" "$ra" "${la:-0}" "$rb" "${lb:-0}" >&2
  done
  ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
  LC_ALL=C awk -v p="$proto" -v w="$where" -v a="$ma" -v b="$mb" \
    'BEGIN {printf "%s %s: server-counted goodput, linerate client median %.1f Mbit/s, iperf3 client median %.1f Mbit/s, ratio %.3f\n", w, p, a/1e6, b/1e6, a/b}'
  if [ "$proto" = udp ]; then
    echo "$where udp: median loss counted by the server, linerate client $(printf '%s\n' "${al[@]}" | median)%, iperf3 client $(printf '%s\n' "${bl[@]}" | median)%"
  fi
done
