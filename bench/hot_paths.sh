#!/usr/bin/env bash
# The hot paths' figures and their goals in one table: runs the benchmark binaries that hold
# them (each beside its reference, so every ratio comes from one run), medians of 3 repetitions,
# and prints ours, the reference, the ratio and the goal per row.
#
#   cmake --preset bench && cmake --build --preset bench
#   bash bench/hot_paths.sh [build/bench] [--repetitions N]
#
# Run it on a quiet machine: the figures are CPU time (BVH: wall time, as Assimp's row). The raw
# Google Benchmark JSON of each binary is left in <build>/bench/hot_paths/.
set -euo pipefail

build=build/bench
repetitions=3
while [[ $# -gt 0 ]]; do
  case "$1" in
    --repetitions) repetitions="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) build="$1"; shift ;;
  esac
done

bin="$build/bench"
out="$bin/hot_paths"
mkdir -p "$out"
for area in ga_lvvj core geometry bvh dtw humanoid; do
  exe="$bin/retarget_bench_$area"
  if [[ ! -x "$exe" ]]; then
    echo "hot_paths.sh: $exe is missing; build the bench preset first (cmake --build --preset bench)" >&2
    exit 2
  fi
done

run() {  # area, filter[, repetitions]
  "$bin/retarget_bench_$1" --benchmark_filter="$2" --benchmark_repetitions="${3:-$repetitions}" \
    --benchmark_report_aggregates_only=true --benchmark_out="$out/$1.json" --benchmark_out_format=json \
    >/dev/null 2>"$out/$1.log" || { cat "$out/$1.log" >&2; exit 1; }
}
run ga_lvvj 'BM_GaLvvj_(MapFrame|MapFrameNoisy/leg_fit:[01]|KdlLmaArmsElbowWrist)$'
run core 'BM_Core_ForwardKinematics(KdlChains)?$'
run geometry 'BM_Geometry_(CapsuleCapsule|CapsuleCapsuleFcl|SphereCapsule|SphereCapsuleFcl)$'
# Assimp's import time varies by about 10 % from run to run: three times the repetitions there.
run bvh 'BM_Bvh_(ReadFile|ReadFileAssimp|LimitMemcpy|LimitNewlines)(/real_time)?$' $((3 * repetitions))
run dtw 'BM_Dtw_(Reference|TwoRows|TwoRowsWindow50)/1000$'
run humanoid 'BM_Humanoid_G1_(Map|KdlLma)/motion:0$'

python3 - "$out" <<'EOF'
import json, os, sys

out = sys.argv[1]
median = {}
for area in ("ga_lvvj", "core", "geometry", "bvh", "dtw", "humanoid"):
    with open(os.path.join(out, area + ".json")) as f:
        data = json.load(f)
    for b in data["benchmarks"]:
        if b.get("aggregate_name", "median") != "median":  # one repetition: no aggregates
            continue
        name = b["run_name"].replace("/real_time", "")
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        seconds = (b["real_time"] if "/real_time" in b["run_name"] else b["cpu_time"]) * scale
        median[name] = (seconds, b)

def t(name):
    return median[name][0]

def fmt(seconds):
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"

rows = []
def row(what, ours, ref_name, ref, goal, ok):
    rows.append((what, ours, ref_name, ref, goal, "" if ok is None else ("met" if ok else "NOT met")))

exact, noisy0, noisy1, kdl = (t("BM_GaLvvj_MapFrame"), t("BM_GaLvvj_MapFrameNoisy/leg_fit:0"),
                              t("BM_GaLvvj_MapFrameNoisy/leg_fit:1"), t("BM_GaLvvj_KdlLmaArmsElbowWrist"))
row("GA-LVVJ, exact skeletons", fmt(exact), "", "", "<= 1 us", exact <= 1e-6)
row("GA-LVVJ, noisy, leg fit off", fmt(noisy0), "", "", "<= 3 us", noisy0 <= 3e-6)
row("GA-LVVJ, noisy, leg fit on", fmt(noisy1), "KDL LMA, arms only", f"{fmt(kdl)} ({kdl / noisy1:.1f}x)",
    "<= 5 us, >= 10x", noisy1 <= 5e-6 and kdl / noisy1 >= 10)
fk, fk_kdl = t("BM_Core_ForwardKinematics"), t("BM_Core_ForwardKinematicsKdlChains")
row("FK, 25-joint humanoid", fmt(fk), "KDL chains", f"{fmt(fk_kdl)} ({fk_kdl / fk:.1f}x)", ">= 3x", fk_kdl / fk >= 3)
cc, cc_fcl = t("BM_Geometry_CapsuleCapsule"), t("BM_Geometry_CapsuleCapsuleFcl")
row("capsule-capsule distance", fmt(cc), "FCL", f"{fmt(cc_fcl)} ({cc_fcl / cc:.1f}x)", ">= 5x", cc_fcl / cc >= 5)
sc, sc_fcl = t("BM_Geometry_SphereCapsule"), t("BM_Geometry_SphereCapsuleFcl")
row("sphere-capsule distance", fmt(sc), "FCL", f"{fmt(sc_fcl)} ({sc_fcl / sc:.1f}x)", ">= 10x", sc_fcl / sc >= 10)
bvh_name = "BM_Bvh_ReadFile"
bvh, assimp = t(bvh_name), t("BM_Bvh_ReadFileAssimp")
mb = median[bvh_name][1].get("bytes_per_second", 0) / 1e6
memcpy = median["BM_Bvh_LimitMemcpy"][1].get("bytes_per_second", 0) / 1e6
lines = median["BM_Bvh_LimitNewlines"][1].get("bytes_per_second", 0) / 1e6
row(f"BVH read, 66 MB ({mb:.0f} MB/s; memcpy {memcpy:.0f}, newlines {lines:.0f})", fmt(bvh), "Assimp",
    f"{fmt(assimp)} ({assimp / bvh:.1f}x)", ">= 20x", assimp / bvh >= 20)
cells = 1000 * 1000
for name, what in (("BM_Dtw_TwoRows/1000", "DTW 22-D, two rows"), ("BM_Dtw_TwoRowsWindow50/1000", "DTW 22-D, 50-frame window")):
    per_cell = median[name][1]["per_cell"] * 1e9 if "per_cell" in median[name][1] else t(name) / cells * 1e9
    ref = median["BM_Dtw_Reference/1000"][1]["per_cell"] * 1e9
    two_rows = name == "BM_Dtw_TwoRows/1000"  # the goal's form; the window shares its kernel
    row(what, f"{per_cell:.2f} ns/cell", "plain reference", f"{ref:.2f} ns/cell ({ref / per_cell:.1f}x)",
        "<= 3 ns/cell" if two_rows else "(same kernel)", per_cell <= 3 if two_rows else None)

hum, hum_kdl = t("BM_Humanoid_G1_Map/motion:0"), t("BM_Humanoid_G1_KdlLma/motion:0")
row("HumanoidMapper, whole-body G1 frame (demo motions)", fmt(hum), "KDL LMA, 4 limbs' end frames",
    f"{fmt(hum_kdl)} ({hum_kdl / hum:.1f}x)", "<= 50 us", hum <= 50e-6)

widths = [max(len(r[i]) for r in rows + [("what", "ours", "reference", "reference figure", "goal", "")]) for i in range(6)]
header = ("what", "ours", "reference", "reference figure", "goal", "")
for r in [header] + rows:
    print("  ".join(r[i].ljust(widths[i]) for i in range(6)).rstrip())
EOF
