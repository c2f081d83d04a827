#!/bin/sh
# End-to-end demo of the `retarget` command line, with no external data:
#   apps/retarget/demo.sh <build dir> [output dir]
# 1. generates a demo human motion (right-hand wave) as skeleton CSV, 2. describes it,
# 3. maps it onto NAO with GA-LVVJ, 4. prints how closely NAO imitates it (per link) and how often
# the mapping had to clamp or hold a joint, 5. writes the HTML report (3D bodies, curves),
# 6. synthesises the robot's skeleton as CSV.
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
out_dir=$(cd "$out_dir" && pwd)  # absolute, for the report's file:// address

echo "== 1. generate a demo motion (wave, 30 Hz, 6 s)"
"$retarget" demo wave -o "$out_dir/wave.csv" --rate 30 --duration 6

echo "== 2. describe it"
"$retarget" info "$out_dir/wave.csv"

echo "== 3. map it onto NAO with GA-LVVJ"
# The file name names the method, so eval and report know what produced the angles.
"$retarget" map "$out_dir/wave.csv" --robot nao --method ga-lvvj -o "$out_dir/wave_nao_ga-lvvj.csv" --json \
  >"$out_dir/map_summary.json"

echo "== 4. how closely NAO imitates the wave"
"$retarget" eval "$out_dir/wave.csv" "$out_dir/wave_nao_ga-lvvj.csv" --robot nao --metrics similarity
# The mapping's own counts (top-level keys of map --json; the per-joint ones are indented deeper).
count() { sed -n "s/^  \"$1\": \([0-9][0-9]*\),\{0,1\}\$/\1/p" "$out_dir/map_summary.json"; }
frames=$(count frames)
echo "  mapping: $(count clamped_frames) of $frames frames clamped (a joint's wanted angle outside its limits)," \
  "$(count held_frames) held (degenerate input: the last good angle kept)"

echo "== 5. the HTML report (the human and NAO in 3D, joint angles, metric curves, summary table)"
"$retarget" report "$out_dir/wave.csv" --robot nao --method ga-lvvj -o "$out_dir/report.html"
echo "  report: $out_dir/report.html"
echo "  open it in a browser: xdg-open '$out_dir/report.html'  (or file://$out_dir/report.html)"

echo "== 6. the robot's own skeleton as CSV, for other tools"
"$retarget" synth --robot nao "$out_dir/wave_nao_ga-lvvj.csv" -o "$out_dir/nao_skeleton.csv"

echo "== done: outputs in $out_dir"
