#!/usr/bin/env bash
# Benchmark, not a test: linerate's batched and segmented UDP and zero-copy TCP against iperf3 on
# loopback, side by side.
#
# Runs the two tools in turn (A B A B ...) with the same write size and duration and prints, per
# row, the median receiver goodput of each, the ratio linerate / iperf3 and, for UDP, both tools'
# median loss.
#   udp batched:   stream --protocol udp --payload 1400 against Debian's iperf3 -u -b 0 -l 1400
#                  (target ratio >= 1.6)
#   udp gso:       the same with --gso against IPERF3_NEW -u -b 0 -l 1400 --gsro (target >= 1.0)
#   tcp zero-copy: stream --protocol tcp --payload 131072 --zerocopy --skip-rx-copy against
#                  IPERF3_NEW -l 128K -Z --skip-rx-copy (target >= 1.0)
# --gsro and --skip-rx-copy are iperf3 client options the client hands on to its server: --gsro
# turns on GSO at the sender (the client) and GRO at the receiver (the server), --skip-rx-copy has
# the receiver read with MSG_TRUNC; -Z is the sender's. iperf3's goodput and loss are its server's
# own (server -J, client --get-server-output): the end.sum of Debian's 3.12 client counts the lost
# datagrams of the omitted second against the datagrams sent after it.
# linerate's loss is lost / datagrams_sent, checked against its own counts
# (datagrams_sent = datagrams_received + lost).
#
# Needs: iperf3 (Debian package iperf3), ss (iproute2), python3, a built jar
#   (mvn -B -q package -DskipTests) and, for the gso and zero-copy rows, IPERF3_NEW: an iperf3 3.21
#   or later built from esnet/iperf's public source (Debian's has neither --gsro nor
#   --skip-rx-copy); without it those rows are skipped. Traffic stays on 127.0.0.1.
# Usage: [IPERF3_NEW=/path/to/iperf3-3.21] examples/bench/udp-batch-vs-iperf3.sh [ROUNDS (default 5)] [SECONDS (default 3)]
#   environment: TRANSPORT (linerate's transport, default native, the JNI socket transport);
#   AFFINITY=C;S pins both tools alike: linerate's sending threads to CPU C and receiving threads to
#   CPU S (--affinity 'C;S'), iperf3's client to C and its server to S (-A C,S). Unpinned by default;
#   on a small host where the sender lands decides the TCP figure, so compare pinned runs.
#   WARMUP=S (whole seconds, default 1) is left out of both tools' figures alike (linerate --warmup,
#   iperf3 -O): on a 2-CPU host linerate's JVM still compiles during its first second or two, and
#   shares the two CPUs with the pinned threads while it does.
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup iperf3 3 5499 "$@"
trap 'exit 130' INT # bench_setup's EXIT trap kills a started server
trap 'exit 143' TERM
transport=${TRANSPORT:-native}
pin_lr=() pin_ip=()
if [ -n "${AFFINITY:-}" ]; then
  [[ $AFFINITY =~ ^[0-9]+\;[0-9]+$ ]] || { echo "AFFINITY '$AFFINITY' is not C;S (two CPU numbers, such as 1;0)" >&2; exit 2; }
  pin_lr=(--affinity "$AFFINITY") pin_ip=(-A "${AFFINITY/;/,}")
fi
warmup=${WARMUP:-1}
[[ $warmup =~ ^[0-9]+$ ]] || { echo "WARMUP '$warmup' is not a whole number of seconds (0 or more)" >&2; exit 2; }
bound=$((secs + warmup + 30)) # seconds any one run of either tool may take

new=${IPERF3_NEW:-}
if [ -z "$new" ]; then
  echo "udp gso and tcp zero-copy skipped: IPERF3_NEW is not set (iperf3 3.21 or later built from esnet/iperf)" >&2
elif [ ! -x "$new" ]; then
  echo "udp gso and tcp zero-copy skipped: IPERF3_NEW $new is not executable" >&2; new=
else
  help=$("$new" --help 2>&1 || true)
  if [[ $help != *--gsro* || $help != *--skip-rx-copy* ]]; then
    echo "udp gso and tcp zero-copy skipped: $new has no --gsro or no --skip-rx-copy (needs iperf3 3.21 or later)" >&2; new=
  fi
fi

iperf3_run() { # BINARY CLIENT_OPTIONS...: sets rate (bits/s received) and loss (%; TCP: -), the server's own
  local bin=$1 out
  shift
  timeout --foreground "$bound" "$bin" -s -1 -J -B 127.0.0.1 -p "$port" >/dev/null 2>&1 & server_pid=$!
  # wait (bounded) until the server listens; a probe connection would use up its one test (-1)
  wait_listening -Hltn
  out=$(timeout --foreground "$bound" "$bin" -c 127.0.0.1 -p "$port" -t "$secs" -O "$warmup" -J --get-server-output "${pin_ip[@]}" "$@") \
    || kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true; server_pid=
  rate=$(echo "$out" | json_field server_output_json.end.sum_received.bits_per_second 2>/dev/null || true)
  [ -n "$rate" ] || { echo "$bin gave no result: $(echo "$out" | json_field error 2>/dev/null || true)" >&2; exit 1; }
  loss=$(echo "$out" | json_field server_output_json.end.sum_received.lost_percent)
  if [ -n "$loss" ]; then loss=$(LC_ALL=C printf '%.4f' "$loss"); else loss=-; fi
}

linerate_run() { # PROTOCOL PAYLOAD OPTIONS...: sets rate (bits/s received) and loss (%; TCP: -)
  local proto=$1 payload=$2 out rc=0 sent recv lost
  shift 2
  out=$(timeout --foreground "$bound" java -jar "$jar" stream --transport "$transport" --protocol "$proto" --payload "$payload" "${pin_lr[@]}" "$@" \
    --duration "${secs}s" --warmup "${warmup}s" --json) || rc=$?
  [ "$rc" -ne 130 ] || exit 130 # Ctrl-C: linerate stopped and printed what it had measured
  rate=$(echo "$out" | json_field detail.bits_per_second 2>/dev/null || true)
  [ -n "$rate" ] || { echo "linerate gave no result (exit $rc)" >&2; exit 1; }
  loss=-
  if [ "$proto" = udp ]; then
    sent=$(echo "$out" | json_field detail.datagrams_sent); recv=$(echo "$out" | json_field detail.datagrams_received)
    lost=$(echo "$out" | json_field detail.lost)
    [ $((recv + lost)) -eq "$sent" ] || echo "linerate UDP loss inconsistent: $recv + $lost != $sent" >&2
    loss=$(LC_ALL=C awk -v l="$lost" -v s="$sent" 'BEGIN {printf "%.4f", s ? 100 * l / s : 0}')
  fi
}

# row NAME TARGET LINERATE_PROTOCOL LINERATE_PAYLOAD LINERATE_OPTIONS... -- IPERF3_BINARY IPERF3_OPTIONS...
row() {
  local name=$1 target=$2 lr=() ip=() a=() b=() al=() bl=() i
  shift 2
  while [ "$1" != -- ]; do lr+=("$1"); shift; done
  shift; ip=("$@")
  local peer; peer="iperf3 $("${ip[0]}" --version | head -1 | col 2)"
  for i in $(seq "$rounds"); do
    linerate_run "${lr[@]}"; a+=("$rate"); al+=("$loss")
    iperf3_run "${ip[@]}"; b+=("$rate"); bl+=("$loss")
    LC_ALL=C printf '%s round %d: linerate %.0f bit/s, lost %s%%; %s %.0f bit/s, lost %s%%\n' \
      "$name" "$i" "${a[-1]}" "${al[-1]}" "$peer" "${b[-1]}" "${bl[-1]}" | sed 's/, lost -%//g' >&2
  done
  local ma mb mla=- mlb=-
  ma=$(printf '%s\n' "${a[@]}" | median); mb=$(printf '%s\n' "${b[@]}" | median)
  if [ "${lr[0]}" = udp ]; then
    mla=$(printf '%s\n' "${al[@]}" | median); mlb=$(printf '%s\n' "${bl[@]}" | median)
  fi
  LC_ALL=C awk -v n="$name" -v p="$peer" -v a="$ma" -v b="$mb" -v t="$target" -v la="$mla" -v lb="$mlb" \
    'BEGIN {printf "%s: linerate median %.1f Mbit/s, %s median %.1f Mbit/s, ratio %.3f (target >= %s)", n, a/1e6, p, b/1e6, a/b, t
      if (la != "-") printf "; median loss linerate %.2f%%, %s %.2f%%", la, p, lb; print ""}'
}

echo "transport $transport, $rounds rounds of ${secs} s after ${warmup} s left out, on 127.0.0.1, affinity ${AFFINITY:-none}, TCP congestion" \
  "control $(cat /proc/sys/net/ipv4/tcp_congestion_control 2>/dev/null || echo unknown)" >&2
row "udp batched" 1.6 udp 1400 -- iperf3 -u -b 0 -l 1400
if [ -n "$new" ]; then
  row "udp gso" 1.0 udp 1400 --gso -- "$new" -u -b 0 -l 1400 --gsro
  row "tcp zero-copy" 1.0 tcp 131072 --zerocopy --skip-rx-copy -- "$new" -l 128K -Z --skip-rx-copy
fi
