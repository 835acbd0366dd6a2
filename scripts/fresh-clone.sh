#!/usr/bin/env bash
# Clones the repository into a temporary folder and runs the README's two
# commands there (the first ```sh block of README.md: the arena example, then
# the test suite), each timed, with an empty target directory inside the
# clone; then prints the times and the machine.
#
#   scripts/fresh-clone.sh [--dry-run | --smoke] [--keep] [REPO]
#
# REPO is a path or URL to clone (default: the repository holding this
# script); the clone checks out REPO's committed HEAD, so uncommitted changes
# are not measured. Crates already in cargo's download cache are not fetched
# again: a first build on a new machine also pays for the downloads.
#   --dry-run  clone and print the commands, run nothing
#   --smoke    time `cargo --version` in place of each command (a quick check
#              of this script)
#   --keep     keep the temporary folder (it holds a full target directory)
set -euo pipefail

mode=run
keep=no
repo=
for arg in "$@"; do
  case $arg in
    --dry-run) mode=dry ;;
    --smoke) mode=smoke ;;
    --keep) keep=yes ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fresh-clone: unknown flag $arg (try --help)" >&2; exit 2 ;;
    *) repo=$arg ;;
  esac
done
if [ -z "$repo" ]; then
  repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bitpack-fresh-clone.XXXXXX")
if [ "$keep" = no ]; then
  trap 'rm -rf "$tmp"' EXIT
fi
clone=$tmp/bitpack

# Clone, then check out exactly the source's HEAD (a branch, a worktree's
# branch or a detached commit alike).
git clone --quiet --no-checkout "$repo" "$clone"
git -C "$clone" fetch --quiet "$repo" HEAD
git -C "$clone" checkout --quiet --detach FETCH_HEAD
commit=$(git -C "$clone" rev-parse --short HEAD)

# The README's commands: the lines of its first ```sh block, comments dropped.
mapfile -t commands < <(
  awk '/^```sh$/ { inside = 1; next } inside && /^```/ { exit } inside' "$clone/README.md" |
    sed 's/[[:space:]]*#.*$//' | sed '/^[[:space:]]*$/d'
)
if [ "${#commands[@]}" -ne 2 ]; then
  echo "fresh-clone: expected two commands in README.md's first sh block, found ${#commands[@]}" >&2
  exit 1
fi

export CARGO_TARGET_DIR=$clone/target
echo "clone: $repo at $commit, in $clone"
echo "target directory: $CARGO_TARGET_DIR"
for command in "${commands[@]}"; do
  echo "command: $command"
done
[ "$mode" = dry ] && exit 0

# Each command's wall and CPU time (user + sys, its child processes
# included: cargo, rustc, the programs it runs), by bash's `time`.
TIMEFORMAT='%R %U %S'
# Seconds as "1 min 16.2 s".
minutes() { awk -v t="$1" 'BEGIN { m = int(t / 60); printf "%d min %4.1f s", m, t - 60 * m }'; }
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || uptime)
results=()
status=0
for index in "${!commands[@]}"; do
  command=${commands[$index]}
  [ "$mode" = smoke ] && command="cargo --version"
  log=$tmp/command-$index.log
  echo "running: $command (output in $log)"
  set +e
  # The command's output to its log; only `time`'s line to the time file.
  { time { (cd "$clone" && bash -c "$command") >"$log" 2>&1; }; } 2>"$tmp/time-$index"
  code=$?
  set -e
  read -r wall user sys <"$tmp/time-$index"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
  results+=("$(printf '%-40s wall %s, CPU %s (user + sys), exit %d' "$command" "$(minutes "$wall")" "$(minutes "$cpu")" "$code")")
  if [ "$code" -ne 0 ]; then
    status=$code
    echo "fresh-clone: \`$command\` failed (exit $code); the end of its output:" >&2
    tail -n 30 "$log" >&2
    break
  fi
done

echo
echo "fresh clone of $commit, empty target directory:"
printf '  %s\n' "${results[@]}"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ *//')"
echo "load average at the start: $load; $(rustc --version)"
[ "$keep" = yes ] && echo "kept: $tmp"
exit $status
