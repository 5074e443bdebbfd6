# bench/lib.sh: helpers shared by bench/run.sh and bench/beem.sh (sourced
# from the repo root; measure reads $repeat and $timeout_s).

# measure DIR TAG CMD...: runs CMD $repeat times with stdout to DIR/TAG.out;
# sets best_wall best_cpu best_rss_kb (of the run with the best wall time)
# and run_rc (the exit code of the last run).
measure() {
  local dir=$1 tag=$2; shift 2
  local i wall user sys rss
  best_wall=""; best_cpu=""; best_rss_kb=""; run_rc=0
  for ((i = 1; i <= repeat; i++)); do
    run_rc=0
    timeout -k 10 "$timeout_s" /usr/bin/time -f '%e %U %S %M' -o "$dir/$tag.time" \
      "$@" >"$dir/$tag.out.$i" 2>"$dir/$tag.err" || run_rc=$?
    if [ "$run_rc" -ne 0 ]; then
      cp "$dir/$tag.out.$i" "$dir/$tag.out"
      return 0
    fi
    read -r wall user sys rss < <(tail -n 1 "$dir/$tag.time")
    if [ -z "$best_wall" ] || awk -v a="$wall" -v b="$best_wall" 'BEGIN { exit !(a < b) }'; then
      best_wall=$wall; best_rss_kb=$rss
      best_cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
      cp "$dir/$tag.out.$i" "$dir/$tag.out"
    fi
  done
}

# human NUMBER: 1234567 -> 1.23 M
human() {
  awk -v x="$1" 'BEGIN {
    if (x !~ /^[0-9.]+$/) printf "n/a"; else if (x >= 1e9) printf "%.2f G", x / 1e9; else if (x >= 1e6) printf "%.2f M", x / 1e6;
    else if (x >= 1e3) printf "%.1f k", x / 1e3; else printf "%.0f", x }'
}
# div A B [FORMAT]: A / B, or n/a when B is 0 or either is not a number
div() {
  awk -v a="$1" -v b="$2" -v f="${3:-%.2f}" 'BEGIN {
    if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) printf "n/a"; else printf f, a / b }'
}
xsign() { [ "$1" = n/a ] || printf '×'; }
commas() { printf "%s" "$1" | rev | sed 's/\([0-9]\{3\}\)/\1,/g; s/,$//' | rev; }

# The machine, for the tables' headers.
cpu=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -n 1)
[ -n "$cpu" ] || cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -n 1)
mem_total=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)
