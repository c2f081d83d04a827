#!/bin/sh
# End-to-end demo of the `retarget` command line, with no external data:
#   apps/retarget/demo.sh <build dir> [output dir]
# 1. generates a demo human motion (right-hand wave) as skeleton CSV,
# 2. describes it,
# 3. maps it onto NAO with GA-LVVJ, 4. evaluates the imitation, 5. synthesises the robot's skeleton.
set -eu

if [ $# -lt 1 ]; then
  echo "usage: $0 <build dir> [output dir]" >&2
  exit 2
fi
build_dir=$1
out_dir=${2:-${TMPDIR:-/tmp}/retarget_demo}
retarget="$build_dir/apps/retarget/retarget"
if [ ! -x "$retarget" ]; then
  echo "demo.sh: '$retarget' not found; build the retarget_cli target first" >&2
  exit 2
fi
mkdir -p "$out_dir"

echo "== 1. generate a demo motion (wave, 30 Hz, 6 s)"
"$retarget" demo wave -o "$out_dir/wave.csv" --rate 30 --duration 6

echo "== 2. describe it"
"$retarget" info "$out_dir/wave.csv"

echo "== 3. map it onto NAO with GA-LVVJ"
"$retarget" map "$out_dir/wave.csv" --robot nao --method ga-lvvj -o "$out_dir/nao_angles.csv"

echo "== 4. evaluate the imitation (WBF, LLF, cosine similarity)"
"$retarget" eval "$out_dir/wave.csv" "$out_dir/nao_angles.csv" --robot nao --json

echo "== 5. the robot's own skeleton, for a visual check"
"$retarget" synth --robot nao "$out_dir/nao_angles.csv" -o "$out_dir/nao_skeleton.csv"

echo "== done: outputs in $out_dir"
