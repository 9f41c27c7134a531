#!/usr/bin/env bash
# Is build B faster than build A? Times both on the very same steps, in
# alternation, a run of each a fraction of a second apart, and prints the
# median of the per-round ratios B/A with its quartiles. On this shared
# machine that settles differences of a few percent that separate bench runs,
# minutes apart, cannot (see tests/bench/lockstep.cpp).
#
# usage: scripts/compare-builds.sh BUILD_A BUILD_B [ROUNDS [SCENE FISH THREADS STEPS FROM]]
#   BUILD_A, BUILD_B: build folders with tests/bench/mirofish_lockstep built
#   (e.g. a git worktree of the old commit, built with scripts/build.sh).
#   Defaults: 30 rounds of 8 steps of the constant-density scene, 50000 fish,
#   1 thread, from step 60. Build A runs the scene up to FROM once and saves
#   that state (a snapshot); then both builds start from it, so diverging
#   schools do not matter, and neither process has run the scene before its
#   rounds: a process that had (A, up to 2026-12-05) timed article 000
#   3-4 % slower than one that loaded the state, the same build against
#   itself, for where the heap had put the scan's lists (docs/benchmark-history.md).
#   On 1 thread both builds run on the same core (MIROFISH_COMPARE_CPU, default
#   0): this machine's two cores can differ in speed for minutes (one took
#   1.5 times as long as the other on the same steps, 2026-12-02), and two
#   builds left to land on different cores then differ by that much.
#   MIROFISH_WARMUP=N: both builds step N times from the shared state before
#   the rounds start (tests/bench/lockstep.cpp), for builds that sort the
#   fish in different orders.
#   MIROFISH_COMPARE_ENV_A, MIROFISH_COMPARE_ENV_B: settings for one side
#   only, e.g. MIROFISH_COMPARE_ENV_B=MIROFISH_SEPARATION=apart with the same
#   build as A and B compares the scan's two ways of summing the separation.
set -euo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
fi
a="$1/tests/bench/mirofish_lockstep"
b="$2/tests/bench/mirofish_lockstep"
rounds="${3:-30}"
scene=("${4:-constant-density}" "${5:-50000}" "${6:-1}" "${7:-8}" "${8:-60}")
for tool in "$a" "$b"; do
  [[ -x "$tool" ]] || { echo "compare-builds: $tool is missing (build the target mirofish_lockstep)" >&2; exit 1; }
done

pin=()
if [[ "${scene[2]}" == 1 ]]; then
  pin=(taskset -c "${MIROFISH_COMPARE_CPU:-0}")
  command -v taskset >/dev/null || { echo "compare-builds: taskset (util-linux) is missing" >&2; exit 1; }
fi

read -ra env_a <<<"${MIROFISH_COMPARE_ENV_A:-}"
read -ra env_b <<<"${MIROFISH_COMPARE_ENV_B:-}"

work="$(mktemp -d)"
pids=()
cleanup() {
  exec 3>&- 4<&- 5>&- 6<&- 2>/dev/null || true
  [[ ${#pids[@]} -gt 0 ]] && wait "${pids[@]}" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkfifo "$work/a.in" "$work/a.out" "$work/b.in" "$work/b.out"

# A saves the state it reaches (and quits: no rounds on its input); both start from it.
env "${env_a[@]}" "${pin[@]}" "$a" "${scene[@]}" save "$work/state" </dev/null >/dev/null ||
  { echo "compare-builds: $a could not save the state at step ${scene[4]}" >&2; exit 1; }
env "${env_a[@]}" "${pin[@]}" "$a" "${scene[@]}" load "$work/state" <"$work/a.in" >"$work/a.out" &
pids+=($!)
exec 3>"$work/a.in" 4<"$work/a.out"
read -r line <&4 || { echo "compare-builds: $a did not start" >&2; exit 1; }
env "${env_b[@]}" "${pin[@]}" "$b" "${scene[@]}" load "$work/state" <"$work/b.in" >"$work/b.out" &
pids+=($!)
exec 5>"$work/b.in" 6<"$work/b.out"
read -r line <&6 || { echo "compare-builds: $b did not start" >&2; exit 1; }

time_a() { echo go >&3; read -r ta na ca <&4; }
time_b() { echo go >&5; read -r tb nb cb <&6; }
for ((r = 0; r < rounds; ++r)); do
  if ((r % 2 == 0)); then time_a; time_b; else time_b; time_a; fi
  echo "$ta $tb $na $nb $ca $cb"
  printf 'round %d of %d: A %.4f s, B %.4f s\n' $((r + 1)) "$rounds" "$ta" "$tb" >&2
done | awk -v scene="${scene[*]}" '
  { ratio[NR] = $2 / $1; a[NR] = $1; b[NR] = $2; na = $3; nb = $4; ca = $5; cb = $6 }
  function q(arr, n, p,   i, j, t, s) {   # the p-quantile by sorting a copy
    for (i = 1; i <= n; ++i) s[i] = arr[i]
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && s[j - 1] > s[j]; --j) { t = s[j]; s[j] = s[j - 1]; s[j - 1] = t }
    return s[int(p * (n - 1) + 1.5)]
  }
  END {
    printf "scene %s (fish threads steps from): B/A time, median of %d rounds %.3f (quartiles %.3f-%.3f); ", scene, NR, q(ratio, NR, 0.5), q(ratio, NR, 0.25), q(ratio, NR, 0.75)
    printf "median seconds per run A %.4f, B %.4f; neighbours after the run A %s, B %s; candidates A %s, B %s\n", q(a, NR, 0.5), q(b, NR, 0.5), na, nb, ca, cb
  }'
