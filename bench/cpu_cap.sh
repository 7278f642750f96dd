# A CPU cap for processes a benchmark names by PID: a cgroup of its own with a
# CFS quota (cgroup v2 cpu.max, or the v1 cpu controller's cfs_quota_us).
# Sourced by bench/lock_cycles.sh, which caps redis-server with it so that
# redis is the scarcer resource on a small machine (REDIS_CPU=...).
#   cpu_cap_create CORES   make the cgroup (needs root); prints why and returns 1 when it cannot
#   cpu_cap_add PID        move PID into it
#   cpu_cap_remove         remove it (once every process in it has exited)
# The quota is refilled every 10 ms, so a capped process is held back in short
# slices rather than stopped for most of a 100 ms period.

cpu_cap_dir=""
cpu_cap_kind=""
readonly cpu_cap_period_us=10000

cpu_cap_create() {  # CORES
  local cores=$1 quota
  if ! [[ $cores =~ ^[0-9]*\.?[0-9]+$ ]] || (($(echo "$cores <= 0" | bc))); then
    echo "REDIS_CPU must be a number of cores above 0, e.g. 0.15 (got '$cores')" >&2
    return 1
  fi
  quota=$(echo "$cores * $cpu_cap_period_us / 1" | bc)
  ((quota >= 1000)) || { echo "REDIS_CPU=$cores is below 0.1 core, which the kernel's quota cannot express" >&2; return 1; }
  if [[ -f /sys/fs/cgroup/cgroup.subtree_control ]] && grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control; then
    cpu_cap_dir=$(mktemp -d /sys/fs/cgroup/lockcheck-bench-cap.XXXXXX 2>/dev/null) || cpu_cap_dir=""
    [[ -n $cpu_cap_dir ]] && echo "$quota $cpu_cap_period_us" >"$cpu_cap_dir/cpu.max" && cpu_cap_kind="cgroup v2 cpu.max"
  elif [[ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]]; then
    cpu_cap_dir=$(mktemp -d /sys/fs/cgroup/cpu/lockcheck-bench-cap.XXXXXX 2>/dev/null) || cpu_cap_dir=""
    [[ -n $cpu_cap_dir ]] && echo "$cpu_cap_period_us" >"$cpu_cap_dir/cpu.cfs_period_us" \
      && echo "$quota" >"$cpu_cap_dir/cpu.cfs_quota_us" && cpu_cap_kind="cgroup v1 cpu.cfs_quota_us"
  fi
  if [[ -z $cpu_cap_kind ]]; then
    echo "REDIS_CPU needs root and the cgroup cpu controller (v2 with cpu enabled at the root, or v1's cpu hierarchy)" >&2
    cpu_cap_remove
    return 1
  fi
}

cpu_cap_add() {  # PID
  echo "$1" >"$cpu_cap_dir/cgroup.procs"
}

cpu_cap_remove() {
  [[ -n $cpu_cap_dir && -d $cpu_cap_dir ]] || return 0
  local tries
  for ((tries = 0; tries < 50; tries++)); do rmdir "$cpu_cap_dir" 2>/dev/null && break; sleep 0.1; done
  cpu_cap_dir=""
}
