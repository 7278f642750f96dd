# lib.sh: helpers shared by redis.sh, zk.sh, etcd.sh, mariadb.sh (issue 40,
# "disks that lie"). Sourced, never run. Every server these scripts start is a
# child of the script; it is tracked by PID in STARTED and killed (SIGKILL,
# by that PID only) on exit. Nothing here touches system services.

set -u

DISK_ROOT=${LOCKCHECK_DISK_ROOT:-${TMPDIR:-/tmp}/lockcheck-disk-faults}
STARTED=()          # PIDs of servers (and helpers) this script started
MOUNTED=()          # tmpfs mounts this script made

now_ms() { date +%s%3N; }
fsize() { stat -c %s "$1"; }

# --- process handling -------------------------------------------------------

# spawn LOG CMD...: starts CMD in the background, stdout+stderr to LOG; sets PID.
spawn() {
    local log=$1
    shift
    "$@" >>"$log" 2>&1 &
    PID=$!
    STARTED+=("$PID")
    SPAWN_MS=$(now_ms)
}

# wait_ready PID PROBE_FUNCTION TIMEOUT_S: waits until PROBE succeeds or PID
# exits. Sets READY (up | exit N | timeout) and READY_MS (ms since spawn).
wait_ready() {
    local pid=$1 probe=$2 timeout=$3
    local deadline=$(($(now_ms) + timeout * 1000))
    while :; do
        if ! kill -0 "$pid" 2>/dev/null; then
            local rc=0
            wait "$pid" || rc=$?
            READY="exit $rc"
            READY_MS=$(($(now_ms) - SPAWN_MS))
            forget "$pid"
            return 1
        fi
        if "$probe"; then
            READY=up
            READY_MS=$(($(now_ms) - SPAWN_MS))
            return 0
        fi
        if (($(now_ms) > deadline)); then
            READY="timeout"
            READY_MS=$(($(now_ms) - SPAWN_MS))
            return 1
        fi
        sleep 0.05
    done
}

# still_running PID SECONDS: after READY=up, checks that it stays up a while
# (some servers answer and then die while loading in the background).
still_running() {
    sleep "$2"
    kill -0 "$1" 2>/dev/null
}

# port_free PORT: nothing listens on 127.0.0.1:PORT (a server left from
# before would answer the probes in a new server's place)
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

forget() {
    local keep=() p
    for p in "${STARTED[@]}"; do [[ $p != "$1" ]] && keep+=("$p"); done
    STARTED=("${keep[@]+"${keep[@]}"}")
}

# kill9 PID: SIGKILL and reap one process this script started.
kill9() {
    local pid=$1
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    forget "$pid"
}

cleanup_all() {
    local p m
    for p in "${STARTED[@]+"${STARTED[@]}"}"; do
        kill -9 "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    STARTED=()
    for m in "${MOUNTED[@]+"${MOUNTED[@]}"}"; do
        umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true
    done
    MOUNTED=()
}
trap cleanup_all EXIT
trap 'exit 130' INT TERM

# --- faults on files (the server is down) -----------------------------------

# cut_tail FILE N: removes the last N bytes.
cut_tail() { truncate -s $(($(fsize "$1") - $2)) "$1"; }
# truncate_to FILE SIZE
truncate_to() { truncate -s "$2" "$1"; }
# flip_bit FILE OFFSET [BIT]: xors one bit of the byte at OFFSET; prints what it did.
flip_bit() {
    local f=$1 off=$2 bit=${3:-0}
    local b nb
    b=$(od -An -tu1 -j "$off" -N1 "$f" | tr -d ' ')
    nb=$((b ^ (1 << bit)))
    printf "$(printf '\\%03o' "$nb")" | dd of="$f" bs=1 seek="$off" count=1 conv=notrunc status=none
    FLIP_NOTE="byte $off: 0x$(printf %02x "$b") -> 0x$(printf %02x "$nb")"
}
# zero_range FILE OFFSET LENGTH: overwrites with zeros, size unchanged.
zero_range() {
    dd if=/dev/zero of="$1" bs=4096 seek="$2" count="$3" oflag=seek_bytes iflag=count_bytes conv=notrunc status=none
}
# append_zeros FILE LENGTH: the size grew but the data never arrived (XFS/ext4
# after a crash with delayed allocation: a tail of zeros).
append_zeros() { head -c "$2" /dev/zero >>"$1"; }

# --- disk errors while the server runs (each script's running_case) ------------

# disk_error_dir DIR MODE MB: makes DIR/data, on a tmpfs of MB MiB when MODE is
# enospc (disk_error_done unmounts it).
disk_error_dir() {
    mkdir -p "$1/data"
    if [[ $2 == enospc ]]; then
        mount -t tmpfs -o size="$3"m tmpfs "$1/data"
        MOUNTED+=("$1/data")
    fi
}

# disk_error_inject PID MODE DIR MB [INJECT [SETTLE_S]]: the fault on the running
# server PID. enospc: a filler file fills DIR/data's tmpfs of MB MiB. Otherwise
# strace fails every call INJECT names (default fsync,fdatasync:error=EIO) and
# is given SETTLE_S (default 1) to attach. Sets TRACER (strace's PID, or empty)
# and NOTE (what was done, for the table).
disk_error_inject() {
    local pid=$1 mode=$2 dir=$3 mb=$4 inject=${5:-fsync,fdatasync:error=EIO} settle=${6:-1}
    TRACER=""
    if [[ $mode == enospc ]]; then
        head -c $((mb * 1024 * 1024)) /dev/zero >"$dir/data/filler" 2>/dev/null
        NOTE="tmpfs filled: $(df --output=avail -B1 "$dir/data" | tail -1 | tr -d ' ') bytes left"
    else
        strace -q -f -p "$pid" -e trace="${inject%%:*}" -e inject="$inject" -o "$LOGS/$CASE.strace" &
        TRACER=$!
        STARTED+=("$TRACER")
        sleep "$settle"
        NOTE="strace -f -e inject=$inject"
    fi
}

# disk_error_heal PID MODE DIR [SETTLE_S]: ends the fault: detaches strace first
# (a process that dies while traced stays until the tracer lets go; then
# SETTLE_S, default 1) or deletes the filler. Sets ALIVE (yes or no) and RC
# (the server's exit status when it died).
disk_error_heal() {
    local pid=$1 mode=$2 dir=$3 settle=${4:-1}
    if [[ -n $TRACER ]]; then
        kill "$TRACER" 2>/dev/null
        wait "$TRACER" 2>/dev/null
        forget "$TRACER"
        sleep "$settle"
    fi
    ALIVE=yes RC=""
    if ! kill -0 "$pid" 2>/dev/null; then
        ALIVE=no RC=0
        wait "$pid" || RC=$?
        forget "$pid"
    fi
    [[ $mode == enospc ]] && rm -f "$dir/data/filler"
    return 0
}

# disk_error_process: the table's words for what the server did (after disk_error_heal).
disk_error_process() { [[ $ALIVE == yes ]] && echo "kept running" || echo "exited, status $RC"; }

# disk_error_done DIR MODE: unmounts the tmpfs of enospc.
disk_error_done() {
    if [[ $2 == enospc ]]; then
        umount "$1/data"
        MOUNTED=()
    fi
    return 0
}

# --- results ----------------------------------------------------------------

# row FILE CELLS...: appends a markdown table row.
row() {
    local f=$1
    shift
    local line="|" c
    for c in "$@"; do
        c=${c//|/\\|}
        line+=" ${c//$'\n'/<br>} |"
    done
    echo "$line" >>"$f"
    echo "$line"
}
