#!/usr/bin/env bash
# Benchmark (not a test): linerate's AF_PACKET sender against trafgen (Debian package netsniff-ng)
# on a veth pair inside a network namespace this script creates and deletes.
#
# For each frame size, the two tools run alternately ROUNDS times (at least 5), one core each:
#   trafgen  --cpus 1, qdisc bypassed (its default); frames/s = growth of the receiving veth end's
#            rx_packets between two readings in steady state, divided by the time between the readings
#            (each reading stamped right after it was read). Nothing receives the frames.
#   trafgen+rx  the same, with netsniff-ng reading the receiving end through an AF_PACKET ring, as
#            linerate's receiver does. On veth the kernel copies each frame into that ring on the
#            sending core, so this is the like-for-like peer of a run that counts every frame.
#   linerate raw, one stream: one sending thread, one receiving thread (on veth the kernel's receive
#            work runs on the sender's core); frames/s = its own measured window after the warm-up
#            (tx_frames_per_s), and the run must be valid: the receiver counted every frame.
#            LINERATE_TX_MODE=ring|sendmmsg chooses the send path (default sendmmsg).
# Prints the median frames/s of each and the ratios linerate / trafgen and linerate / trafgen+rx.
#
# With LINERATE_BENCH_MODE=tx-only the comparison is like for like with trafgen alone: nothing
# receives on either side. linerate runs 'raw --tx A --dst-mac 02:00:00:00:00:02' (no receiver),
# frames/s = its own measured window (valid: no error, frames sent, nothing refused), and
# trafgen as above; the two alternate ROUNDS times and the ratio is linerate-tx-only / trafgen.
# Beside the rates it prints frames per CPU second, which a host shared with other work moves
# less: trafgen's over its whole life (bash's time keyword), linerate's over its sending thread
# (cpu_ns.sender; the JVM's compiler and monitor threads are left out).
# LINERATE_IDLE=busy|yield|backoff|sleep passes --idle to linerate (default: its own default).
#
# Usage: examples/bench/afpacket-vs-trafgen.sh [ROUNDS] [SECONDS] [FRAME_SIZE...]
#   defaults: 5 rounds, 3 s per run, frame sizes 64 and 1014 (L2 bytes without FCS)
# Needs: root, ip, trafgen, java 17, python3, and the shaded jar (mvn -B package -DskipTests).
set -euo pipefail

ROUNDS=${1:-5}
SECS=${2:-3}
shift $(( $# > 2 ? 2 : $# )) || true
SIZES=("$@")
[ ${#SIZES[@]} -eq 0 ] && SIZES=(64 1014)
if [ "$ROUNDS" -lt 5 ]; then
    echo "ROUNDS $ROUNDS is out of range; allowed: 5 or more" >&2
    exit 2
fi
if [ "$SECS" -lt 2 ] || [ "$SECS" -gt 60 ]; then
    echo "SECONDS $SECS is out of range; allowed: 2..60" >&2
    exit 2
fi

HERE=$(cd "$(dirname "$0")" && pwd)
JAR=${LINERATE_JAR:-$HERE/../target/linerate.jar}
TX_MODE=${LINERATE_TX_MODE:-sendmmsg}
case $TX_MODE in ring|sendmmsg) ;; *) echo "LINERATE_TX_MODE '$TX_MODE' is not known; allowed: ring, sendmmsg" >&2; exit 2 ;; esac
BENCH_MODE=${LINERATE_BENCH_MODE:-both}
case $BENCH_MODE in both|tx-only) ;; *) echo "LINERATE_BENCH_MODE '$BENCH_MODE' is not known; allowed: both, tx-only" >&2; exit 2 ;; esac
IDLE=()
if [ -n "${LINERATE_IDLE:-}" ]; then
    case $LINERATE_IDLE in busy|yield|backoff|sleep) IDLE=(--idle "$LINERATE_IDLE") ;;
        *) echo "LINERATE_IDLE '$LINERATE_IDLE' is not known; allowed: busy, yield, backoff, sleep" >&2; exit 2 ;; esac
fi
for tool in ip trafgen netsniff-ng java python3; do
    command -v "$tool" >/dev/null || { echo "missing $tool (trafgen: apt-get install netsniff-ng)" >&2; exit 2; }
done
[ -f "$JAR" ] || { echo "missing $JAR; build it with: mvn -B package -DskipTests" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (network namespaces, AF_PACKET)" >&2; exit 2; }

NS=lrtbench$$
A=lrtb${$}a
B=lrtb${$}b
WORK=$(mktemp -d)
cleanup() {
    ip netns del "$NS" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT INT TERM

ip netns add "$NS"
ip -n "$NS" link add "$A" type veth peer name "$B"
for dev in "$A" "$B"; do
    ip netns exec "$NS" sysctl -qw "net.ipv6.conf.$dev.disable_ipv6=1"
    ip -n "$NS" link set "$dev" up
done

# The linerate command: through the top-level command when it has 'raw', else the class on its own.
if ip netns exec "$NS" java -jar "$JAR" raw --help 2>&1 | grep -q -- '--tx'; then
    LINERATE=(java -jar "$JAR" raw)
else
    LINERATE=(java --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED -cp "$JAR" io.linerate.examples.cli.RawCommand)
fi

counter() { ip netns exec "$NS" cat "/sys/class/net/$1/statistics/$2"; }
now_ns() { date +%s%N; }

trafgen_fps() { # frame size -> frames/s
    local size=$1 cfg=$WORK/frame.cfg
    # dst 02:00:00:00:00:02, src 02:00:00:00:00:01, ethertype 0x88b5, zero payload
    echo "{ 0x02,0x00,0x00,0x00,0x00,0x02, 0x02,0x00,0x00,0x00,0x00,0x01, 0x88,0xb5, fill(0x00, $((size - 14))) }" > "$cfg"
    local before after
    before=$(counter "$B" rx_packets)
    # bash's time keyword: user and system CPU of trafgen and every process it waited for
    ( TIMEFORMAT='%U %S'
      { time ip netns exec "$NS" timeout -s INT $((SECS + 2)) \
          trafgen --dev "$A" --conf "$cfg" --cpus 1 --no-sock-mem --notouch-irq --no-cpu-stats >/dev/null 2>&1; } \
          2> "$WORK/trafgen.time" ) &
    local pid=$!
    sleep 1 # settle: leave the start-up transient out
    local c0 t0 c1 t1
    c0=$(counter "$B" rx_packets); t0=$(now_ns)
    sleep "$SECS"
    c1=$(counter "$B" rx_packets); t1=$(now_ns)
    wait "$pid" || true
    after=$(counter "$B" rx_packets)
    # frames per CPU second over trafgen's whole life, written beside the rate (for tx-only mode)
    python3 -c "u, s = map(float, open('$WORK/trafgen.time').read().split()); print(f'{($after - $before) / (u + s):.0f}')" \
        > "$WORK/trafgen.eff" 2>/dev/null || echo "-" > "$WORK/trafgen.eff"
    python3 -c "print(f'{($c1 - $c0) * 1e9 / ($t1 - $t0):.0f}')"
}

trafgen_rx_fps() { # frame size -> frames/s with an AF_PACKET ring receiver on the other end
    ip netns exec "$NS" timeout -s INT $((SECS + 4)) \
        netsniff-ng --in "$B" --out /dev/null --silent --ring-size 64MiB >/dev/null 2>&1 &
    local rx=$!
    sleep 0.5 # the receiver's ring is set up before the first frame
    trafgen_fps "$1"
    kill -INT "$rx" 2>/dev/null || true
    wait "$rx" || true
}

linerate_fps() { # frame size -> frames/s, or INVALID
    local size=$1 out=$WORK/linerate.json
    ip netns exec "$NS" "${LINERATE[@]}" --tx "$A" --rx "$B" --frame-size "$size" --tx-mode "$TX_MODE" "${IDLE[@]}" \
        --warmup 1s --duration "${SECS}s" --json > "$out" || true
    python3 - "$out" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["detail"]  # the raw run's own fields under the result's "detail"
s = r["streams"][0]
if not r["valid"]:
    print("INVALID(" + "; ".join(r["reasons"]) + ")")
else:
    print(f'{s["tx_frames_per_s"]:.0f}')
PY
}

linerate_tx_only_fps() { # frame size -> frames/s, or INVALID; nothing receives
    local size=$1 out=$WORK/linerate.json
    ip netns exec "$NS" "${LINERATE[@]}" --tx "$A" --dst-mac 02:00:00:00:00:02 --frame-size "$size" \
        --tx-mode "$TX_MODE" "${IDLE[@]}" --warmup 1s --duration "${SECS}s" --json > "$out" || true
    python3 - "$out" "$WORK/linerate.eff" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["detail"]  # the raw run's own fields under the result's "detail"
# frames per CPU second of the sending thread, warm-up and window together
eff = sum(s["tx_frames_total"] for s in r["streams"]) / (r["cpu_ns"]["sender"] / 1e9)
open(sys.argv[2], "w").write(f"{eff:.0f}\n")
if not r["valid"]:
    print("INVALID(" + "; ".join(r["reasons"]) + ")")
else:
    print(f'{sum(s["tx_frames_per_s"] for s in r["streams"]):.0f}')
PY
}

median() { python3 -c "import statistics,sys; v=[float(x) for x in sys.argv[1:]]; print(f'{statistics.median(v):.0f}')" "$@"; }

echo "# afpacket-vs-trafgen ($BENCH_MODE): $ROUNDS rounds x $SECS s per tool, frame sizes ${SIZES[*]} bytes," \
    "linerate --tx-mode $TX_MODE ${IDLE[*]}, kernel $(uname -r), $(nproc) cpus"
if [ "$BENCH_MODE" = tx-only ]; then
    for size in "${SIZES[@]}"; do
        t_all=(); l_all=(); ratios=(); eff_ratios=(); invalid=0
        for round in $(seq 1 "$ROUNDS"); do
            t=$(trafgen_fps "$size")
            te=$(cat "$WORK/trafgen.eff")
            l=$(linerate_tx_only_fps "$size")
            le=$(cat "$WORK/linerate.eff")
            echo "size $size round $round: trafgen $t frames/s ($te frames per CPU s)," \
                "linerate tx-only $l frames/s ($le frames per CPU s of its sending thread)"
            case $te$le in *-*) ;; *) eff_ratios+=("$(python3 -c "print($le / $te)")") ;; esac
            t_all+=("$t")
            case $l in INVALID*) invalid=$((invalid + 1)) ;;
                *) l_all+=("$l"); ratios+=("$(python3 -c "print($l / $t)")") ;; esac
        done
        tm=$(median "${t_all[@]}")
        if [ ${#l_all[@]} -eq 0 ]; then
            echo "RESULT tx-only size=$size trafgen_median_fps=$tm linerate_median_fps=none (every run invalid)"
            continue
        fi
        lm=$(median "${l_all[@]}")
        ratio=$(python3 -c "print(f'{$lm / $tm:.3f}')")
        round_ratio=$(python3 -c "import statistics,sys; print(f'{statistics.median(float(x) for x in sys.argv[1:]):.3f}')" "${ratios[@]}")
        eff_ratio=-
        if [ ${#eff_ratios[@]} -gt 0 ]; then
            eff_ratio=$(python3 -c "import statistics,sys; print(f'{statistics.median(float(x) for x in sys.argv[1:]):.3f}')" "${eff_ratios[@]}")
        fi
        echo "RESULT tx-only size=$size trafgen_median_fps=$tm linerate_median_fps=$lm ratio=$ratio" \
            "median_round_ratio=$round_ratio median_frames_per_cpu_s_ratio=$eff_ratio invalid_linerate_runs=$invalid"
    done
    exit 0
fi
for size in "${SIZES[@]}"; do
    t_all=(); r_all=(); l_all=(); invalid=0
    for round in $(seq 1 "$ROUNDS"); do
        t=$(trafgen_fps "$size")
        r=$(trafgen_rx_fps "$size")
        l=$(linerate_fps "$size")
        echo "size $size round $round: trafgen $t frames/s, trafgen+rx $r frames/s, linerate $l frames/s"
        t_all+=("$t")
        r_all+=("$r")
        case $l in INVALID*) invalid=$((invalid + 1)) ;; *) l_all+=("$l") ;; esac
    done
    tm=$(median "${t_all[@]}")
    rm_=$(median "${r_all[@]}")
    if [ ${#l_all[@]} -eq 0 ]; then
        echo "RESULT size=$size trafgen_median_fps=$tm trafgen_rx_median_fps=$rm_ linerate_median_fps=none (every run invalid)"
        continue
    fi
    lm=$(median "${l_all[@]}")
    ratio=$(python3 -c "print(f'{$lm / $tm:.3f}')")
    ratio_rx=$(python3 -c "print(f'{$lm / $rm_:.3f}')")
    echo "RESULT size=$size trafgen_median_fps=$tm trafgen_rx_median_fps=$rm_ linerate_median_fps=$lm" \
        "ratio=$ratio ratio_vs_trafgen_rx=$ratio_rx invalid_linerate_runs=$invalid"
done
