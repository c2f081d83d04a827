#!/bin/sh
# End-to-end demo of the `retarget` command line, with no external data:
#   examples/demo.sh <build dir> [output dir]
# 1. generates a demo human motion (right-hand wave) as skeleton CSV,
# 2. describes it,
# 3. (placeholder) maps it onto NAO and evaluates the imitation.
set -eu

if [ $# -lt 1 ]; then
  echo "usage: $0 <build dir> [output dir]" >&2
  exit 2
fi
build_dir=$1
out_dir=${2:-${TMPDIR:-/tmp}/retarget_demo}
retarget="$build_dir/examples/retarget"
if [ ! -x "$retarget" ]; then
  echo "demo.sh: '$retarget' not found; build the retarget_cli target first" >&2
  exit 2
fi
mkdir -p "$out_dir"

echo "== 1. generate a demo motion (wave, 30 Hz, 6 s)"
"$retarget" demo wave -o "$out_dir/wave.csv" --rate 30 --duration 6

echo "== 2. describe it"
"$retarget" info "$out_dir/wave.csv"

# == 3. map it onto NAO and evaluate (placeholder, filled in by the lead once the mappers
#       and metrics are integrated), e.g.:
# "$retarget" map "$out_dir/wave.csv" --robot nao --method ga-lvvj -o "$out_dir/nao_angles.csv"
# "$retarget" eval "$out_dir/wave.csv" "$out_dir/nao_angles.csv" --robot nao

echo "== done: outputs in $out_dir"
