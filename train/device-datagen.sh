#!/bin/sh
# Self-play data on a borrowed many-core machine, in one bounded call.
#
#   device-datagen.sh BIN_DIR OUT_DIR NAME SEED [SECONDS [DATAGEN_ARGS...]]
#
# Runs `datagen` from BIN_DIR (a build for any x86-64: `cargo build
# --release -p castella-train`; the machine may have no Rust toolchain)
# on every core for SECONDS (default 480), then merges what was played
# into OUT_DIR/NAME-a.games and NAME-b.games with a log: a lent machine
# hands back at most eight files of 16 MiB, and 16 cores make about
# 2 700 positions a second at 4.3 bytes each (1.44M positions, 3 MB a
# half, in 535 s on the 16-core H200 machine). Each of the
# PROCS processes (default: one per two cores) plays its own seed,
# SEED * 1000 + k, so its games differ from those of any other run with
# another SEED. The settings are datagen's defaults unless DATAGEN_ARGS
# (for example `--nodes 8000`) say otherwise; use those of the home run
# the files will train with (since round 35 of docs/training-log.md,
# `--label-share 0.5`).
#
# A process stopped by the time limit keeps every finished chunk; the
# chunk is small (CHUNK games, default 16) so that little is lost.
set -eu

if [ $# -lt 4 ]; then
    echo "usage: $0 BIN_DIR OUT_DIR NAME SEED [SECONDS [DATAGEN_ARGS...]]" >&2
    exit 2
fi
bin=$1 out=$2 name=$3 seed=$4 seconds=${5:-480}
shift $(($# < 5 ? $# : 5))
cores=$(nproc)
procs=${PROCS:-$(( (cores + 1) / 2 ))}
threads=$(( (cores + procs - 1) / procs ))
chunk=${CHUNK:-16}
work=$(mktemp -d)
log=$out/$name.log
mkdir -p "$out"

echo "$(date -u +%FT%TZ) $procs processes x $threads threads, $seconds s, seed $seed${*:+, $*}" >"$log"
k=0
while [ "$k" -lt "$procs" ]; do
    mkdir -p "$work/$k"
    timeout -s TERM "$seconds" "$bin/datagen" --dir "$work/$k" --name "$name-$k" \
        --seed $((seed * 1000 + k)) --games 1000000 --threads "$threads" --chunk "$chunk" "$@" \
        2>"$work/$k/stderr" &
    k=$((k + 1))
done
wait || true

# Two halves, so that neither file grows past what comes back.
half=$(( (procs + 1) / 2 ))
a="" b=""
k=0
while [ "$k" -lt "$procs" ]; do
    f=$work/$k/$name-$k.games
    tail -n 1 "$work/$k/stderr" >>"$log"
    if [ -s "$f" ]; then
        if [ "$k" -lt "$half" ]; then a="$a $f"; else b="$b $f"; fi
    fi
    k=$((k + 1))
done
# shellcheck disable=SC2086 # the lists are paths without spaces (mktemp)
[ -z "$a" ] || "$bin/data" merge "$out/$name-a.games" $a >>"$log" 2>&1
# shellcheck disable=SC2086
[ -z "$b" ] || "$bin/data" merge "$out/$name-b.games" $b >>"$log" 2>&1
"$bin/data" count "$out"/*.games >>"$log" 2>&1 || true
rm -rf "$work"
cat "$log"
