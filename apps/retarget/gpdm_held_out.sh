#!/usr/bin/env bash
# The held-out protocol of the GPDM particle filter (docs/methods/particle_filter.md, "Held out"):
# learn one GPDM from some recordings, track others, and print per tracked recording a Markdown
# table of GA-LVVJ, the joint-space particle filter at 50, 200 and 800 particles, and GPDM-PF
# with and without its GA-LVVJ fallback: cosine, WBF and LLF (mean / min), the lag behind
# GA-LVVJ (frames), the frames not explained by the model ("flagged") and the cost per frame.
#
#   bash apps/retarget/gpdm_held_out.sh BUILD_DIR --train A.csv [B.bvh ...] --test C.csv [D.csv ...]
#        [--robot nao] [--every K] [--iterations N]
#
# BUILD_DIR holds apps/retarget/retarget (any preset). Needs python3 to format the JSON of
# `retarget compare`; the model goes to a temporary directory, removed at the end.
set -euo pipefail

if [ $# -lt 1 ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
retarget="$1/apps/retarget/retarget"
shift
[ -x "$retarget" ] || { echo "gpdm_held_out: no $retarget (build the command line first)" >&2; exit 2; }
command -v python3 > /dev/null || { echo "gpdm_held_out: needs python3 to format the tables" >&2; exit 2; }

robot=nao every=2 iterations=150 mode="" train=() test=()
while [ $# -gt 0 ]; do
  case "$1" in
    --train) mode=train ;;
    --test) mode=test ;;
    --robot) robot="$2"; shift ;;
    --every) every="$2"; shift ;;
    --iterations) iterations="$2"; shift ;;
    -*) echo "gpdm_held_out: unknown option $1" >&2; exit 2 ;;
    *) if [ "$mode" = train ]; then train+=("$1"); elif [ "$mode" = test ]; then test+=("$1"); else
         echo "gpdm_held_out: $1: give --train or --test first" >&2; exit 2; fi ;;
  esac
  shift
done
[ ${#train[@]} -gt 0 ] && [ ${#test[@]} -gt 0 ] || { echo "gpdm_held_out: needs --train and --test files" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$retarget" learn gpdm "${train[@]}" --robot "$robot" --every "$every" --iterations "$iterations" -o "$work/model.gpdm" \
  2> /dev/null | sed 's/^learn gpdm: /model: /'
methods="ga-lvvj,pf:particles=50,pf:particles=200,pf:particles=800,gpdm-pf,gpdm-pf:fallback=ga-lvvj"
for file in "${test[@]}"; do
  "$retarget" compare "$file" --robot "$robot" --method "$methods" --model "$work/model.gpdm" --json > "$work/compare.json"
  python3 - "$file" "$work/compare.json" <<'PY'
import json, os, sys
path, report = sys.argv[1], json.load(open(sys.argv[2]))
rows = report["rows"]
print(f"\n{os.path.basename(path)} ({rows[0]['frames']} frames)\n")
print("| method | cosine mean / min | WBF mean / min | LLF mean / min | lag (frames) | flagged | us/frame |")
print("|---|---|---|---|---|---|---|")
for row in rows:
    s, m = row["similarity"], row["mapping"]
    pair = lambda k: f"{s[k]['mean']:.3f} / {s[k]['min']:.3f}"
    flagged = m["not_converged_frames"] if row["method"] == "gpdm-pf" else "-"
    print(f"| {row['label']} | {pair('cosine')} | {pair('wbf')} | {pair('llf')} | {m.get('lag_vs_ga_lvvj', '-')} "
          f"| {flagged} | {m['us_per_frame']:.1f} |")
PY
done
