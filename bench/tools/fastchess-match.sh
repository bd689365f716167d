#!/usr/bin/env bash
# The matches behind the figures in commits and closing notes, with
# fastchess from the 960 starts, game pairs, one thread and 16 MB each,
# two games at once.
#
#   fastchess-match.sh sprt NAME LIMIT ROUNDS SEED NEW OLD [ARG...]
#       NEW against OLD, both at LIMIT (nodes=40000 or tc=10+0.1):
#       SPRT [0, 10] (it stops at a bound or after ROUNDS pairs), resign
#       at 700 cp for 3 moves and draw from move 40 at 10 cp for 8, as
#       OpenBench adjudicates. Each ARG goes to NEW's engine, for example
#       option.EvalFile=candidate.nnue with NEW and OLD the same binary.
#   fastchess-match.sh versus NAME ROUNDS SEED CASTELLA TC OPPONENT OPP_TC [ARG...]
#       CASTELLA at TC against OPPONENT at OPP_TC (time odds), ROUNDS
#       pairs, no adjudication. Each ARG goes to the opponent, for
#       example option.UCI_LimitStrength=true option.UCI_Elo=2850.
#
# The PGN and fastchess's output go to $MATCHES/NAME.pgn and NAME.log
# (MATCHES defaults to ~/matches). FASTCHESS and OPENINGS default to
# ../shared/tools/fastchess and ../shared/data/chess960-starts.epd beside
# the repository; ELO0 and ELO1 move the SPRT's bounds.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
FASTCHESS="${FASTCHESS:-$ROOT/../shared/tools/fastchess}"
OPENINGS="${OPENINGS:-$ROOT/../shared/data/chess960-starts.epd}"
MATCHES="${MATCHES:-$HOME/matches}"

usage() {
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
    exit 2
}

[ -x "$FASTCHESS" ] || { echo "fastchess-match: no fastchess at $FASTCHESS (set FASTCHESS)" >&2; exit 2; }
[ -f "$OPENINGS" ] || { echo "fastchess-match: no openings file at $OPENINGS (set OPENINGS)" >&2; exit 2; }

whole() {
    [[ "$2" =~ ^[0-9]+$ ]] || { echo "fastchess-match: $1 must be a whole number, not '$2'" >&2; exit 2; }
}

common=(-variant fischerandom
        -openings "file=$OPENINGS" format=epd order=random
        -games 2 -repeat -concurrency 2)

mode="${1:-}"
case "$mode" in
    sprt)
        [ $# -ge 7 ] || usage
        name=$2 limit=$3 rounds=$4 seed=$5 new=$6 old=$7
        shift 7
        whole ROUNDS "$rounds"; whole SEED "$seed"
        [[ "$limit" =~ ^(nodes=[0-9]+|tc=[0-9.+/]+)$ ]] ||
            { echo "fastchess-match: LIMIT must be nodes=N or tc=T, not '$limit'" >&2; exit 2; }
        args=(-engine "cmd=$new" name=new "$@" -engine "cmd=$old" name=old
              -each "$limit" option.Hash=16 option.Threads=1
              "${common[@]}" -srand "$seed" -rounds "$rounds"
              -sprt "elo0=${ELO0:-0}" "elo1=${ELO1:-10}" alpha=0.05 beta=0.05 -ratinginterval 50
              -resign movecount=3 score=700 -draw movenumber=40 movecount=8 score=10)
        ;;
    versus)
        [ $# -ge 8 ] || usage
        name=$2 rounds=$3 seed=$4 castella=$5 tc=$6 opponent=$7 opp_tc=$8
        shift 8
        whole ROUNDS "$rounds"; whole SEED "$seed"
        for clock in "$tc" "$opp_tc"; do
            [[ "$clock" =~ ^[0-9.+/]+$ ]] ||
                { echo "fastchess-match: a clock is like 10+0.1 or 40/10, not '$clock'" >&2; exit 2; }
        done
        args=(-engine "cmd=$castella" name=castella "tc=$tc"
              -engine "cmd=$opponent" name=opponent "tc=$opp_tc" "$@"
              -each option.Hash=16 option.Threads=1
              "${common[@]}" -srand "$seed" -rounds "$rounds" -ratinginterval 10)
        ;;
    *)
        usage
        ;;
esac

mkdir -p "$MATCHES"
echo "fastchess-match: $MATCHES/$name.log" >&2
exec "$FASTCHESS" "${args[@]}" -pgnout "file=$MATCHES/$name.pgn" > "$MATCHES/$name.log" 2>&1
