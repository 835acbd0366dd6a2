#!/usr/bin/env bash
# Instruction counts per unit, by callgrind differences (the run less the run
# at 0 rounds, so set-up cancels). BIN_DIR holds the `bulk` and `sizes`
# binaries (`cargo build --release -p bitpack-benches --bins`: target/release). Usage:
#   benches/callgrind.sh BIN_DIR bulk encode|decode|measure world|logs|records [bitcode]
#   benches/callgrind.sh BIN_DIR snapshot encode|decode        (bitpack derived snapshot, per snapshot)
#   benches/callgrind.sh BIN_DIR sender vec|map                (Sender::write_prioritized inclusive, per tick)
#   benches/callgrind.sh BIN_DIR whole whole|whole-vec         (whole replication encode, per tick)
set -euo pipefail
dir=$1; kind=$2; shift 2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
count() { # out args...
  local out=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
  grep -E '^(summary|totals):' "$out" | head -1 | awk '{print $2}'
}
case $kind in
  bulk) mode=$1; data=$2; extra=${3:-}
    a=$(count $tmp/a "$dir/bulk" $mode 50 $extra $data); b=$(count $tmp/b "$dir/bulk" $mode 0 $extra $data)
    echo "bulk $mode $data $extra: $(( (a-b)/50 ))";;
  snapshot) dec=""; [ "$1" = decode ] && dec=--decode
    a=$(count $tmp/a "$dir/sizes" --profile bitpack $dec --rounds 40); b=$(count $tmp/b "$dir/sizes" --profile bitpack $dec --rounds 10)
    echo "snapshot $1: $(( (a-b)/1800 ))";;
  sender)
    valgrind --tool=callgrind --callgrind-out-file=$tmp/a --toggle-collect='*Sender*write_prioritized*' "$dir/sizes" --profile replication-sender-$1 --rounds 5 >/dev/null 2>&1
    a=$(grep -E '^(summary|totals):' $tmp/a | head -1 | awk '{print $2}')
    echo "sender $1: $(( a/3000 ))";;
  whole)
    a=$(count $tmp/a "$dir/sizes" --profile replication-$1 --rounds 5); b=$(count $tmp/b "$dir/sizes" --profile replication-$1 --rounds 0)
    echo "whole $1: $(( (a-b)/3000 ))";;
  *) echo "unknown kind $kind" >&2; exit 2;;
esac
