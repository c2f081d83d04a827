#!/usr/bin/env bash
# Compile-time table: how long a translation unit takes to compile (wall seconds, peak RAM) for
# Eigen alone, each public header alone, the umbrella header and three small programs.
#
#   bash bench/compile_time/compile_time.sh [options]
#     --cxx g++           compiler (default: $CXX or g++)
#     --flags "-O2"       flags for the programs (headers are checked with -fsyntax-only)
#     --headers all|none  time every public header alone, header-only and compiled (default: all)
#     --top N             print only the N slowest headers (default: all)
#     --jobs N            run N compilations at once (default 1: quiet, comparable timings)
#
# Run it on a quiet machine with --jobs 1 for figures worth quoting (docs/benchmarks.md).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cxx=${CXX:-g++}
flags="-O2"
headers=all
top=0
jobs=1
while [[ $# -gt 0 ]]; do
  case $1 in
    --cxx) cxx=$2; shift 2 ;;
    --flags) flags=$2; shift 2 ;;
    --headers) headers=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "compile_time.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

eigen_dir=$(pkg-config --cflags-only-I eigen3 2>/dev/null | sed 's/-I//g' | awk '{print $1}')
eigen_dir=${eigen_dir:-/usr/include/eigen3}
[[ -f $eigen_dir/Eigen/Dense ]] || { echo "compile_time.sh: Eigen not found in '$eigen_dir'" >&2; exit 2; }
command -v "$cxx" >/dev/null || { echo "compile_time.sh: compiler '$cxx' not found" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
base=(-std=c++17 -I"$root/include" -I"$eigen_dir")

# time_one <label> <source file> <flags...>: prints "label<TAB>seconds<TAB>MB"
time_one() {
  local label=$1 src=$2
  shift 2
  local out="$work/$(basename "$src").o" log="$work/$(basename "$src").$RANDOM.time"
  if ! /usr/bin/time -f '%e %M' -o "$log" "$cxx" "${base[@]}" "$@" -c "$src" -o "$out" 2>"$log.err"; then
    echo "compile_time.sh: '$label' failed to compile:" >&2
    head -20 "$log.err" >&2
    return 1
  fi
  read -r seconds kb <"$log"
  printf '%s\t%s\t%d\n' "$label" "$seconds" $((kb / 1024))
}
export -f time_one
export cxx work
export base_flags="${base[*]}"

# The three small programs: what a user writes first.
cat >"$work/eigen_only.cpp" <<'EOF'
#include <Eigen/Dense>
#include <iostream>
int main() {
  Eigen::Matrix4d m = Eigen::Matrix4d::Random();
  Eigen::Vector4d v = m.inverse() * Eigen::Vector4d::UnitX();
  std::cout << v.transpose() << "\n";
}
EOF
cat >"$work/umbrella.cpp" <<'EOF'
#include <retarget/retarget.hpp>
int main() {}
EOF
cat >"$work/kinect_ga_lvvj.cpp" <<'EOF'
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/robots/nao.hpp>
#include <iostream>
int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const retarget::SkeletonMotion<double> motion = retarget::readKinect(argv[1]);
  const retarget::RobotModel<double> nao = retarget::makeNao();
  retarget::GaLvvjMapper<double> mapper(nao, retarget::naoGaLvvjMap());
  Eigen::VectorXd q(nao.nq());
  for (const auto& frame : motion.frames) (void)mapper.map(frame, q);
  std::cout << q.transpose() << "\n";
}
EOF
cat >"$work/bvh_euler.cpp" <<'EOF'
#include <retarget/io/bvh.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/robots/inmoov.hpp>
#include <iostream>
int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const retarget::BvhMotion motion = retarget::readBvh(argv[1]);
  const retarget::RobotModel<double> inmoov = retarget::makeInMoov<double>();
  retarget::EulerMapper<double> mapper(inmoov, motion, retarget::inmoovEulerMap(motion));
  Eigen::VectorXd q(inmoov.nq());
  for (int f = 0; f < motion.frame_count; ++f) (void)mapper.map(motion.frameValues(f), q);
  std::cout << q.transpose() << "\n";
}
EOF
cat >"$work/metrics_dtw.cpp" <<'EOF'
#include <retarget/metrics/dtw.hpp>
#include <iostream>
int main() {
  const Eigen::MatrixXd a = Eigen::MatrixXd::Random(22, 50), b = Eigen::MatrixXd::Random(22, 60);
  std::cout << retarget::dtw(a, b).distance << "\n";
}
EOF

printf 'what\tseconds\tpeak MB\n'
time_one "Eigen/Dense program ($flags)" "$work/eigen_only.cpp" $flags
time_one "Eigen/Dense program (-fsyntax-only)" "$work/eigen_only.cpp" -fsyntax-only
# Each program twice: header-only (the default) and as a target linking retarget::compiled sees
# it (RETARGET_SEPARATE_COMPILATION: declarations and extern templates; the code is in the library).
for mode in header-only compiled; do
  define=""
  [[ $mode == compiled ]] && define="-DRETARGET_SEPARATE_COMPILATION"
  time_one "[$mode] retarget/retarget.hpp, empty main (-fsyntax-only)" "$work/umbrella.cpp" -fsyntax-only $define
  time_one "[$mode] retarget/retarget.hpp, empty main ($flags)" "$work/umbrella.cpp" $flags $define
  time_one "[$mode] Kinect CSV + GA-LVVJ on NAO ($flags)" "$work/kinect_ga_lvvj.cpp" $flags $define
  time_one "[$mode] BVH + Euler mapper on InMoov ($flags)" "$work/bvh_euler.cpp" $flags $define
  time_one "[$mode] DTW, 22-D ($flags)" "$work/metrics_dtw.cpp" $flags $define
done

if [[ $headers == all ]]; then
  printf '\nheader alone (-fsyntax-only)\theader-only s\tMB\tcompiled s\tMB\n'
  mapfile -t public < <(cd "$root/include" && find retarget -name '*.hpp' -not -path '*/internal/*' | sort)
  for h in "${public[@]}"; do
    printf '#include <%s>\n' "$h" >"$work/h_${h//\//_}.cpp"
  done
  # Optional parts need their dependency's headers; a header whose dependency is absent is
  # reported as "needs <dep>" rather than timed.
  extra=$(pkg-config --cflags-only-I nlohmann_json tinyxml2 nlopt 2>/dev/null || true)
  export extra
  printf '%s\n' "${public[@]}" | xargs -P "$jobs" -I{} bash -c '
    h={}; f="$work/h_${h//\//_}.cpp"
    if out=$(/usr/bin/time -f "%e %M" -o "$f.time" $cxx $base_flags $extra -fsyntax-only "$f" 2>&1) &&
       /usr/bin/time -f "%e %M" -o "$f.ctime" $cxx $base_flags $extra -fsyntax-only -DRETARGET_SEPARATE_COMPILATION "$f" 2>/dev/null; then
      read -r s kb <"$f.time"; read -r cs ckb <"$f.ctime"
      printf "%s\t%s\t%d\t%s\t%d\n" "$h" "$s" $((kb / 1024)) "$cs" $((ckb / 1024))
    else
      dep=$(grep -o "fatal error: [^:]*" <<<"$out" | head -1 | sed "s/fatal error: //")
      printf "%s\tneeds %s\t-\n" "$h" "${dep:-?}"
    fi' | sort -t$'\t' -k2,2 -g -r | { if [[ $top -gt 0 ]]; then head -n "$top"; else cat; fi; }
fi
