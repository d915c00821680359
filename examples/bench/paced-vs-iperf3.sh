#!/usr/bin/env bash
# Benchmark, not a test: what pacing costs and how close it holds its target, against iperf3.
#
# 1. Paced UDP, 1400-byte datagrams at 50 Mbit/s: linerate's `stream` and iperf3 in turn (A B A B
#    ...), each for SECONDS. Prints per run and as medians: the sender's CPU (linerate: the sending
#    thread's CPU time over its life, warm-up included; iperf3: the client's
#    cpu_utilization_percent.host_total), loss and goodput, and the ratio of the CPU medians.
#    Both wait by the same pacing timer, LINERATE_BENCH_PACING_US (default 1000 us, the default
#    of both): each wakes about once per timer and sends the datagrams then due.
# 2. Paced TCP (1220-byte writes, Nagle on) at 10 and 50 Mbit/s with linerate alone: the
#    sender's rate and the receiver's goodput over the window, as ratios to the target.
#
# Needs: iperf3 (Debian package iperf3), ss (iproute2), python3, and a built jar
#   (mvn -B -q package -DskipTests). Traffic stays on 127.0.0.1.
# Usage: examples/bench/paced-vs-iperf3.sh [ROUNDS (default 5)] [SECONDS (default 2)]
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup iperf3 2 5299 "$@"
pacing_us=${LINERATE_BENCH_PACING_US:-1000}
[ "$pacing_us" -ge 1 ] 2>/dev/null && [ "$pacing_us" -le 10000 ] \
  || { echo "LINERATE_BENCH_PACING_US '$pacing_us' is out of range; allowed: 1..10000 (us)" >&2; exit 2; }

# prints "cpu_percent loss_percent goodput_bits" from a linerate stream JSON on stdin
linerate_fields() { python3 -c 'import json,sys
d=json.load(sys.stdin)["detail"]  # the stream's own fields under the result's "detail"
life=d["warmup_s"]+d["duration_s"]
print("%.3f %.4f %.0f" % (d["cpu_ns"]["sender"]/1e9/life*100, d["lost_percent"], d["bits_per_second"]))'; }

# prints "cpu_percent loss_percent goodput_bits" from iperf3 -J of a UDP client on stdin
iperf3_fields() { python3 -c 'import json,sys
e=json.load(sys.stdin)["end"]
print("%.3f %.4f %.0f" % (e["cpu_utilization_percent"]["host_total"], e["sum_received"]["lost_percent"], e["sum_received"]["bits_per_second"]))'; }

iperf3_udp() {
  iperf3 -s -1 -B 127.0.0.1 -p "$port" >/dev/null 2>&1 & server_pid=$!
  # wait (bounded) until the server listens; a probe connection would use up its one test (-1)
  wait_listening -Hltn
  iperf3 -c 127.0.0.1 -p "$port" -u -b 50M -l 1400 --pacing-timer "$pacing_us" -t "$secs" -J | iperf3_fields
  wait "$server_pid" 2>/dev/null || true; server_pid=
}

linerate_udp() {
  java -jar "$jar" stream --protocol udp --payload 1400 --rate 50M --pacing-timer "${pacing_us}us" --duration "${secs}s" --json \
    | linerate_fields
}


la=(); lb=()
for i in $(seq "$rounds"); do
  la+=("$(linerate_udp)")
  lb+=("$(iperf3_udp)")
  LC_ALL=C printf 'udp 50M round %d: linerate cpu %s%% loss %s%% goodput %s | iperf3 cpu %s%% loss %s%% goodput %s\n' \
    "$i" ${la[-1]} ${lb[-1]} >&2
done
for c in 1 2 3; do
  ma[$c]=$(printf '%s\n' "${la[@]}" | col "$c" | median)
  mb[$c]=$(printf '%s\n' "${lb[@]}" | col "$c" | median)
done
LC_ALL=C awk -v p="$pacing_us" -v a="${ma[1]}" -v b="${mb[1]}" -v la="${ma[2]}" -v lb="${mb[2]}" -v ga="${ma[3]}" -v gb="${mb[3]}" \
  'BEGIN {printf "udp 1400 B at 50 Mbit/s: pacing timer %d us: sender CPU median linerate %.2f%%, iperf3 %.2f%%, ratio %.2f; loss %.3f%% / %.3f%%; goodput %.3f / %.3f Mbit/s\n", p, a, b, a/b, la, lb, ga/1e6, gb/1e6}'

for rate in 10000000 50000000; do
  tx=(); rx=()
  for i in $(seq "$rounds"); do
    out=$(java -jar "$jar" stream --protocol tcp --payload 1220 --rate "$rate" --duration "${secs}s" --json)
    read -r t r < <(echo "$out" | python3 -c 'import json,sys
d=json.load(sys.stdin); t=d["rate_bps"]
print("%.5f %.5f" % (d["sender_bits_per_second"]/t, d["bits_per_second"]/t))')
    tx+=("$t"); rx+=("$r")
    echo "tcp $rate round $i: sender/target $t, goodput/target $r" >&2
  done
  LC_ALL=C printf 'tcp paced at %d bit/s: median sender/target %s, median goodput/target %s\n' "$rate" \
    "$(printf '%s\n' "${tx[@]}" | median)" "$(printf '%s\n' "${rx[@]}" | median)"
done
