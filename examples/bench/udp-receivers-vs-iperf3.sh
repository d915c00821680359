#!/usr/bin/env bash
# Benchmark, not a test: how much linerate's UDP receivers lose against iperf3's own receiver on a
# loaded host, on loopback.
#
# Starts HOGS CPU hogs (`yes > /dev/null`, default 2) and four receivers once: `iperf3 -s` (the
# reference), `linerate serve --iperf3`, `linerate serve --iperf2` and `linerate serve` (the agent),
# all with the kernel's default socket buffers. Then, per rate (100M and 1G unless RATES is set),
# each round sends 1400-byte datagrams for SECONDS to each receiver in turn, each pair with the
# same sender:
#   iperf3 -c -u       -> iperf3 -s, and -> serve --iperf3;
#   iperf -c -u        -> iperf -s -u, and -> serve --iperf2 (the client prints the server report);
#   linerate stream    -> iperf3 -s (linerate's iperf3 client), and -> the agent (no warm-up, so
#                         every datagram counts, as iperf's do).
# A sender that is a JVM takes CPU from the receiver on a loaded 2-core host, so the agent is
# judged against iperf3 -s fed by the same linerate client. The script prints the loss each
# receiver counted per round, the medians, and each linerate receiver's median minus its
# reference's, in percentage points (target: at most +0.1).
#
# Needs: iperf3 and iperf (Debian packages iperf3, iperf), ss, python3, and a built jar
# (mvn -B -q package -DskipTests). Traffic stays on loopback. Every server and hog is stopped on
# exit, Ctrl-C or error.
# Usage: examples/bench/udp-receivers-vs-iperf3.sh [ROUNDS (default 5)] [SECONDS (default 2)]
#   environment: HOGS (default 2), RATES (default "100M 1G")
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup iperf3 2 7101 "$@"
command -v iperf >/dev/null || { echo "iperf is not installed: apt-get install iperf" >&2; exit 2; }
hogs=${HOGS:-2}
rates=${RATES:-100M 1G}
[ "$hogs" -ge 0 ] || { echo "HOGS $hogs is out of range; allowed: >= 0" >&2; exit 2; }

p_iperf3=$port p_serve3=$((port + 1)) p_serve2=$((port + 2)) p_agent=$((port + 3)) p_iperf2=$((port + 4))
pids=()
workdir=$(mktemp -d)
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

iperf3 -s -p "$p_iperf3" >/dev/null 2>&1 & pids+=($!)
java -jar "$jar" serve --iperf3 --port "$p_serve3" >/dev/null 2>&1 & pids+=($!)
java -jar "$jar" serve --iperf2 --port "$p_serve2" >/dev/null 2>&1 & pids+=($!)
java -jar "$jar" serve --port "$p_agent" >/dev/null 2>&1 & pids+=($!)
iperf -s -u -p "$p_iperf2" >/dev/null 2>&1 & pids+=($!)
for p in "$p_iperf3" "$p_serve3" "$p_serve2" "$p_agent"; do port=$p wait_listening -Hltn; done
port=$p_iperf2 wait_listening -Hlun
for _ in $(seq "$hogs"); do yes >/dev/null & pids+=($!); done

iperf3_loss() { # port rate -> the receiver's lost_percent
  iperf3 -c 127.0.0.1 -p "$1" -u -b "$2" -l 1400 -t "$secs" -J | json_field end.sum_received.lost_percent
}

iperf2_loss() { # port rate -> the loss percentage of iperf 2's server report
  iperf -c 127.0.0.1 -p "$1" -u -b "$2" -l 1400 -t "$secs" 2>&1 \
    | sed -n '/Server Report/,$ s/.*(\([0-9.e+-]*\)%).*/\1/p' | head -n 1
}

linerate_to_iperf3_loss() { # port rate -> the loss iperf3 -s counted, fed by linerate's iperf3 client
  java -jar "$jar" stream --peer "127.0.0.1:$1" --peer-protocol iperf3 --protocol udp --rate "$2" --payload 1400 \
    --duration "${secs}s" --json | python3 -c 'import json,sys
r=json.load(sys.stdin)["detail"]["remote"]
print(100.0 * r["errors"] / r["packets"] if r["packets"] else "")'
}

agent_loss() { # port rate -> the receiver's lost_percent, checked against sent = received + lost
  local out sent recv lost
  out=$(java -jar "$jar" stream --peer "127.0.0.1:$1" --protocol udp --rate "$2" --payload 1400 \
    --duration "${secs}s" --warmup 0s --json)
  sent=$(echo "$out" | json_field detail.datagrams_sent); recv=$(echo "$out" | json_field detail.datagrams_received)
  lost=$(echo "$out" | json_field detail.lost)
  [ $((recv + lost)) -eq "$sent" ] || echo "agent UDP loss inconsistent: $recv + $lost != $sent" >&2
  echo "$out" | json_field detail.lost_percent
}

minus() { awk -v a="$1" -v b="$2" 'BEGIN {print a - b}'; }

echo "# $hogs CPU hogs, $rounds rounds of ${secs} s, 1400-byte datagrams; loss in % as each receiver counted"
for rate in $rates; do
  : >"$workdir/a"; : >"$workdir/b"; : >"$workdir/c"; : >"$workdir/d"; : >"$workdir/e"; : >"$workdir/f"
  for r in $(seq "$rounds"); do
    a=$(iperf3_loss "$p_iperf3" "$rate"); echo "$a" >>"$workdir/a"
    b=$(iperf3_loss "$p_serve3" "$rate"); echo "$b" >>"$workdir/b"
    f=$(iperf2_loss "$p_iperf2" "$rate"); echo "$f" >>"$workdir/f"
    c=$(iperf2_loss "$p_serve2" "$rate"); echo "$c" >>"$workdir/c"
    e=$(linerate_to_iperf3_loss "$p_iperf3" "$rate"); echo "$e" >>"$workdir/e"
    d=$(agent_loss "$p_agent" "$rate"); echo "$d" >>"$workdir/d"
    printf 'rate %s round %d: iperf3 -s %s  serve --iperf3 %s | iperf -s %s  serve --iperf2 %s | linerate client: iperf3 -s %s  agent %s\n' \
      "$rate" "$r" "$a" "$b" "$f" "$c" "$e" "$d"
  done
  ma=$(median <"$workdir/a"); mb=$(median <"$workdir/b")
  mc=$(median <"$workdir/c"); md=$(median <"$workdir/d"); me=$(median <"$workdir/e"); mf=$(median <"$workdir/f")
  printf 'rate %s median loss %%: iperf3 -s %s  serve --iperf3 %s (%+.2f pp) | iperf -s %s  serve --iperf2 %s (%+.2f pp)' \
    "$rate" "$ma" "$mb" "$(minus "$mb" "$ma")" "$mf" "$mc" "$(minus "$mc" "$mf")"
  printf '  | linerate client: iperf3 -s %s  agent %s (%+.2f pp)\n' "$me" "$md" "$(minus "$md" "$me")"
done
