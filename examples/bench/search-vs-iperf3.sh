#!/usr/bin/env bash
# Benchmark, not a test: linerate's zero-loss rate (NDR) for 1400-byte UDP datagrams through its
# agent, and iperf3's loss at that same rate, between two hosts made of network namespaces joined by
# a veth pair.
#
# Host A (198.18.0.1) runs the clients, host B (198.18.0.2) the servers: `linerate serve` (with a
# shared secret) and `iperf3 -s`, both started once. First ROUNDS searches
# (`search --peer --payload 1400 --trial SECONDS`, this host sending) print each found rate, their
# median and spread (max - min, as a percentage of the median). Then ROUNDS iperf3 runs at that
# median (`iperf3 -u -b RATE -l 1400 -t 5`) print the loss iperf3's server counted.
# With SHAPE_MBIT set, the veth is shaped with tc tbf (rate SHAPE_MBIT mbit, burst 16 KiB, limit
# 512 KiB) and each search also prints found / limit, where the limit is what the link carries for
# the payload: rate × 1400 / (1400 + 14 Ethernet + 20 IPv4 + 8 UDP). Both tools run with the
# kernel's default socket buffers.
# The namespaces (linerate-bench-PID-a and -b) and every server are removed on exit, Ctrl-C or error.
#
# Needs: root, ip and tc (iproute2), iperf3 (Debian package iperf3), ss, python3, and a built jar
#   (mvn -B -q package -DskipTests). Traffic stays inside the two namespaces.
# Usage: [SHAPE_MBIT=200] examples/bench/search-vs-iperf3.sh [ROUNDS (default 5)] [SECONDS (default 2)]
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup iperf3 2 7001 "$@"
shape=${SHAPE_MBIT:-}
if [ -n "$shape" ]; then
  command -v tc >/dev/null || { echo "tc is not installed: apt-get install iproute2" >&2; exit 2; }
  [ "$shape" -ge 10 ] && [ "$shape" -le 10000 ] || { echo "SHAPE_MBIT $shape is out of range; allowed: 10..10000" >&2; exit 2; }
fi
two_hosts 1500
iperf_port=$((port + 1))
if [ -n "$shape" ]; then
  in_a tc qdisc add dev lr-a root tbf rate "${shape}mbit" burst 16kb limit 512kb
  in_b tc qdisc add dev lr-b root tbf rate "${shape}mbit" burst 16kb limit 512kb
fi

head -c 32 /dev/urandom | base64 > "$workdir/secret"
serve_in_b "$workdir/agent.log" java -jar "$jar" serve --bind "$addr_b" --port "$port" --secret-file "$workdir/secret"
serve_in_b "$workdir/iperf3.log" iperf3 -s -J -B "$addr_b" -p "$iperf_port"
listening_in_b -Hltn "$port"
listening_in_b -Hltn "$iperf_port"

range=()
[ -n "$shape" ] && range=(--min-rate 20M --max-rate "$((shape * 2))M")
limit=
[ -n "$shape" ] && limit=$(awk -v r="$shape" 'BEGIN {printf "%.0f", r * 1e6 * 1400 / 1442}')

echo "two hosts $ns_a ($addr_a) and $ns_b ($addr_b), veth MTU 1500, ${shape:-no} shaping${shape:+ mbit}," \
  "$rounds searches of ${secs} s trials" >&2
found=()
for i in $(seq "$rounds"); do
  out=$(in_a java -jar "$jar" search --peer "$addr_b:$port" --secret-file "$workdir/secret" --payload 1400 \
    --trial "${secs}s" "${range[@]}" --json) || true
  f=$(echo "$out" | python3 -c 'import json,sys; v=json.load(sys.stdin)["found_bps"]; print(v if v is not None else "")')
  [ -n "$f" ] || { echo "search $i found nothing: $out" >&2; continue; }
  found+=("$f")
  if [ -n "$limit" ]; then
    LC_ALL=C awk -v i="$i" -v f="$f" -v l="$limit" \
      'BEGIN {printf "search %d: found %.3f Mbit/s, limit %.3f Mbit/s, found/limit %.4f\n", i, f/1e6, l/1e6, f/l}' >&2
  else
    LC_ALL=C awk -v i="$i" -v f="$f" 'BEGIN {printf "search %d: found %.3f Mbit/s\n", i, f/1e6}' >&2
  fi
done
[ "${#found[@]}" -ge 1 ] || { echo "no search found a rate" >&2; exit 1; }
med=$(printf '%s\n' "${found[@]}" | median)
lo=$(printf '%s\n' "${found[@]}" | sort -g | head -1)
hi=$(printf '%s\n' "${found[@]}" | sort -g | tail -1)
LC_ALL=C awk -v m="$med" -v lo="$lo" -v hi="$hi" -v n="${#found[@]}" \
  'BEGIN {printf "linerate NDR over %d searches: median %.3f Mbit/s, min %.3f, max %.3f, spread %.2f%% of the median\n", n, m/1e6, lo/1e6, hi/1e6, (hi-lo)*100/m}'
[ -n "$limit" ] && LC_ALL=C awk -v m="$med" -v l="$limit" 'BEGIN {printf "median found/limit %.4f\n", m/l}'

rate=$(printf '%.0f' "$med")
losses=()
for i in $(seq "$rounds"); do
  out=$(in_a iperf3 -c "$addr_b" -p "$iperf_port" -u -b "$rate" -l 1400 -t 5 -J --get-server-output)
  read -r bps lost pct <<<"$(echo "$out" | python3 -c 'import json,sys
s=json.load(sys.stdin)["server_output_json"]["end"]["sum_received"]
print(s["bits_per_second"], s["lost_packets"], s["lost_percent"])')"
  losses+=("$pct")
  LC_ALL=C printf 'iperf3 round %d at %s bit/s: received %.0f bit/s, lost %s datagrams (%s%%)\n' "$i" "$rate" "$bps" \
    "$lost" "$pct" >&2
done
echo "iperf3 -u -b $rate -l 1400: loss per run ${losses[*]} %, median $(printf '%s\n' "${losses[@]}" | median)%"
