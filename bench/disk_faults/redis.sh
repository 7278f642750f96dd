#!/bin/bash
# redis.sh: what Debian 12's redis-server 7.0 does when its data files are
# damaged while it is down, and when its disk fails while it runs
# (lockcheck issue 40, "disks that lie"). Results: redis/results/table.md and
# one log per server start in redis/results/logs/. Idempotent: every run starts
# from empty directories. Servers listen on 127.0.0.1:17379 only, are children
# of this script and are SIGKILLed by PID on exit; their data directories
# (redis/run/) are removed at the end unless KEEP=1. Needs root only for the
# tmpfs of the ENOSPC cases and for strace (ptrace).
#
#   bash redis.sh            # every case
#   bash redis.sh lock       # only cases whose name contains "lock"

source "$(dirname "$(readlink -f "$0")")/lib.sh"

R=$DISK_ROOT/redis
RUN=$R/run
RES=$R/results${1:+-$1}
LOGS=$RES/logs
PORT=17379
NKEYS=200
FILTER=${1:-}
TABLE=$RES/table.md
RUNNING=$RES/running.md

rm -rf "$RUN" "$RES"
mkdir -p "$RUN" "$LOGS"

cli() { redis-cli -p $PORT "$@" 2>&1; }
probe() { [[ $(redis-cli -p $PORT ping 2>/dev/null) == PONG ]]; }
value_of() { printf 'value-of-k%d:%s' "$1" xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; }

# write_conf DIR EXTRA_LINE...: lockcheck's redis.conf (clusters/redis_node.cpp,
# persistence "always"), plus EXTRA lines (later lines win).
write_conf() {
    local dir=$1
    shift
    mkdir -p "$dir/data"
    chmod 700 "$dir/data"
    {
        echo "bind 127.0.0.1"
        echo "port $PORT"
        echo "protected-mode no"
        echo "daemonize no"
        echo 'logfile ""'
        echo "dir $dir/data"
        echo 'save ""'
        echo "appendonly yes"
        echo "appendfsync always"
        local l
        for l in "$@"; do echo "$l"; done
    } >"$dir/redis.conf"
}

# start NAME N: starts the server of case NAME (its Nth start); sets PID, READY, READY_MS.
start() {
    local log=$LOGS/$1.$2.log
    : >"$log"
    port_free $PORT || { echo "port $PORT is busy: not starting" >&2; READY="port busy"; READY_MS=0; return; }
    spawn "$log" redis-server "$RUN/$1/redis.conf"
    wait_ready "$PID" probe 15 || true
    if [[ $READY == up ]] && ! still_running "$PID" 0.3; then
        local rc=0
        wait "$PID" || rc=$?
        READY="exit $rc (after answering PING)"
        forget "$PID"
    fi
}

# write_keys FROM TO: SETs k FROM..TO-1 (no expiry); sets ACKED to the number of OK replies.
write_keys() {
    local i
    ACKED=$(for ((i = $1; i < $2; i++)); do echo "SET k$i $(value_of "$i")"; done | redis-cli -p $PORT | grep -c '^OK$')
}

# take_lock OWNER: SET lock OWNER NX PX 30000; prints the reply.
take_lock() { cli SET lock "$1" NX PX 30000; }

wait_rewrite() {
    local i
    for ((i = 0; i < 200; i++)); do
        if cli INFO persistence | tr -d '\r' | grep -q '^aof_rewrite_in_progress:0' &&
            cli INFO persistence | tr -d '\r' | grep -q '^aof_rewrite_scheduled:0'; then return 0; fi
        sleep 0.05
    done
}

incr_file() { ls "$RUN/$CASE"/data/appendonlydir/*.incr.aof | sort -t. -k3 -n | tail -1; }
base_file() { ls "$RUN/$CASE"/data/appendonlydir/*.base.rdb | sort -t. -k3 -n | tail -1; }
# offset of the start of the last record ("*N\r\n" at a line start) of FILE
last_record() { grep -boa '^\*[0-9]*' "$1" | tail -1 | cut -d: -f1; }

# interesting lines of a log: what the server said about its files, verbatim
# but without the "PID:M DD Mon YYYY HH:MM:SS.mmm " prefix.
key_lines() {
    grep -vE 'oO0OoO0Oo|Redis version=|Configuration loaded|monotonic clock|Running mode=|Server initialized|overcommit|Ready to accept|Creating AOF (base|incr) file|Redis is now ready|Reading RDB base file on AOF|Loading RDB produced by|RDB age |RDB memory usage when|RDB is base AOF|keys loaded: 0, keys expired: 0|DB loaded from (base|incr) file|DB loaded from append only file|Opening AOF (incr|base) file|^\s*$' "$1" |
        sed -E 's/^[0-9]+:[A-Z] [0-9]+ [A-Za-z]+ [0-9]+ [0-9:.]+ //' | head -${2:-6}
}

# survey: what a restarted server holds. Sets SURVIVED and LOCKSTATE, LOCKB.
survey() {
    local n=$1
    local res
    res=$(cli EVAL "local m=0 local b=0 for i=0,tonumber(ARGV[1])-1 do local v=redis.call('GET','k'..i) if not v then m=m+1 elseif v ~= 'value-of-k'..i..':'..string.rep('x',30) then b=b+1 end end return {m,b}" 0 "$n" | tr '\n' ' ')
    local missing bad dbsize
    missing=$(echo "$res" | awk '{print $1}')
    bad=$(echo "$res" | awk '{print $2}')
    dbsize=$(cli DBSIZE)
    local lockv pttl
    lockv=$(cli GET lock)
    pttl=$(cli PTTL lock)
    SURVIVED="$((n - missing))/$n keys, $bad altered, dbsize $dbsize"
    if [[ -z $lockv ]]; then LOCKSTATE="lock gone"; else LOCKSTATE="lock=$lockv pttl=$pttl"; fi
    LOCKB=$(take_lock B)
    [[ $LOCKB == OK ]] && LOCKB="OK (granted to B)" || LOCKB="${LOCKB:-nil} (refused)"
}

# --- the case runner ---------------------------------------------------------

# run_case NAME FAULT_TEXT CONFIG_TEXT WORKLOAD FAULT [EXTRA_CONF...]
#   WORKLOAD: a function run against the first server (sets NWRITTEN, LOCKA)
#   FAULT:    a function run on the files while the server is down (sets FAULT_NOTE)
run_case() {
    CASE=$1
    local fault_text=$2 config_text=$3 workload=$4 fault=$5
    shift 5
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    local dir=$RUN/$CASE
    write_conf "$dir" "$@"
    start "$CASE" 1
    if [[ $READY != up ]]; then
        row "$TABLE" "$CASE" "$fault_text" "$config_text" "first start failed: $READY" "" "" "" ""
        return 0
    fi
    NWRITTEN=0 LOCKA="" FAULT_NOTE=""
    "$workload"
    kill9 "$PID"
    "$fault"
    start "$CASE" 2
    local outcome=$READY
    local lines
    lines=$(key_lines "$LOGS/$CASE.2.log")
    if [[ $READY == up ]]; then
        survey "$NWRITTEN"
        # (not in $(...): a server started in a subshell would escape this script's bookkeeping)
        if declare -F "after_${CASE//-/_}" >/dev/null; then "after_${CASE//-/_}"; SURVIVED+="; $AFTER_NOTE"; fi
        kill9 "$PID"
        outcome="started"
    else
        SURVIVED="-" LOCKSTATE="-" LOCKB="-"
    fi
    row "$TABLE" "$CASE" "$fault_text${FAULT_NOTE:+ ($FAULT_NOTE)}" "$config_text" "$outcome" "${READY_MS} ms" \
        "${lines:-(nothing beyond the usual start-up lines)}" "$SURVIVED; lock A acked: $LOCKA" "$LOCKSTATE; SET lock B NX PX: $LOCKB"
}

# --- workloads -----------------------------------------------------------------

wl_basic() { # NKEYS data keys, then the lock (the last record of the AOF)
    write_keys 0 $NKEYS
    NWRITTEN=$ACKED
    LOCKA=$(take_lock A)
}

wl_script_lock() { # NKEYS data keys, then the lock as lockcheck's redis-set-nx-px takes it:
    # one EVAL (SET NX PX, then INCR of the fence key), which the AOF holds as MULTI, SET ... PXAT, INCR, EXEC
    write_keys 0 $NKEYS
    NWRITTEN=$ACKED
    LOCKA=$(cli EVAL "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return redis.call('INCR', KEYS[2]) end return false" 2 lock lock:fence A 30000)
}

wl_old_copy() { # half the keys, copy appendonlydir, the other half and the lock
    write_keys 0 $((NKEYS / 2))
    cp -a "$RUN/$CASE/data/appendonlydir" "$RUN/$CASE/appendonlydir.old"
    write_keys $((NKEYS / 2)) $NKEYS
    NWRITTEN=$NKEYS
    LOCKA=$(take_lock A)
}

wl_old_manifest() { # copy before a rewrite, restore the copy's manifest after it
    write_keys 0 $((NKEYS / 2))
    cp -a "$RUN/$CASE/data/appendonlydir" "$RUN/$CASE/appendonlydir.old"
    cli BGREWRITEAOF >/dev/null
    wait_rewrite
    write_keys $((NKEYS / 2)) $NKEYS
    NWRITTEN=$NKEYS
    LOCKA=$(take_lock A)
}

wl_rewrite_then_lock() { # keys, BGREWRITEAOF (keys now in the RDB-format base), then the lock
    write_keys 0 $NKEYS
    NWRITTEN=$ACKED
    cli BGREWRITEAOF >/dev/null
    wait_rewrite
    LOCKA=$(take_lock A)
}

wl_rdb() { # appendonly no: keys, lock, SAVE (dump.rdb holds all of it)
    write_keys 0 $NKEYS
    NWRITTEN=$ACKED
    LOCKA=$(take_lock A)
    cli SAVE >/dev/null
}

# --- faults (server down) -----------------------------------------------------

f_none() { FAULT_NOTE=""; }
f_cut_last_record() {
    local f s
    f=$(incr_file)
    s=$(last_record "$f")
    FAULT_NOTE="$(fsize "$f") -> $s bytes"
    truncate_to "$f" "$s"
}
f_torn_last_record() {
    local f s z
    f=$(incr_file)
    s=$(last_record "$f")
    z=$(fsize "$f")
    FAULT_NOTE="$z -> $((s + (z - s) / 2)) bytes, last record $s..$z"
    truncate_to "$f" $((s + (z - s) / 2))
}
# offset of the start of the last MULTI record ("*1\r\n$5\r\nMULTI\r\n": the name is 8 bytes in)
last_multi() { echo $(($(grep -boa 'MULTI' "$1" | tail -1 | cut -d: -f1) - 8)); }
f_cut_last_block() { # the whole MULTI ... EXEC block of the lock (what corrupt-file's cut-records 1 cuts)
    local f s
    f=$(incr_file)
    s=$(last_multi "$f")
    FAULT_NOTE="$(fsize "$f") -> $s bytes"
    truncate_to "$f" "$s"
}
f_torn_exec() { # the last 5 bytes: the block's EXEC torn (corrupt-file's cut-bytes 5)
    local f
    f=$(incr_file)
    FAULT_NOTE="$(fsize "$f") -> $(($(fsize "$f") - 5)) bytes"
    cut_tail "$f" 5
}
f_cut_1() { local f; f=$(incr_file); FAULT_NOTE="$(fsize "$f") -> $(($(fsize "$f") - 1))"; cut_tail "$f" 1; }
f_cut_300() { local f; f=$(incr_file); FAULT_NOTE="$(fsize "$f") -> $(($(fsize "$f") - 300))"; cut_tail "$f" 300; }
f_flip_mid_payload() { # a byte inside the value of k100, mid-file
    local f o
    f=$(incr_file)
    o=$(grep -boa 'value-of-k100:' "$f" | head -1 | cut -d: -f1)
    flip_bit "$f" $((o + 20)) 0
    FAULT_NOTE="$FLIP_NOTE, inside k100's value"
}
f_flip_mid_length() { # the '4' of "$40" (a bulk length) before k100's value, mid-file
    local f o
    f=$(incr_file)
    o=$(grep -boa 'value-of-k100:' "$f" | head -1 | cut -d: -f1)
    flip_bit "$f" $((o - 4)) 0
    FAULT_NOTE="$FLIP_NOTE, the bulk length \$40 before k100's value becomes \$50"
}
f_flip_mid_marker() { # the '$' of "$40" before k100's value, mid-file
    local f o
    f=$(incr_file)
    o=$(grep -boa 'value-of-k100:' "$f" | head -1 | cut -d: -f1)
    flip_bit "$f" $((o - 5)) 0
    FAULT_NOTE="$FLIP_NOTE, the '\$' marker of the bulk before k100's value"
}
lock_off() { grep -boa 'lock' "$1" | tail -1 | cut -d: -f1; }
# digits of the last PXAT: "PXAT\r\n\$13\r\n" then 13 digits
pxat_digits() { echo $(($(grep -boa 'PXAT' "$1" | tail -1 | cut -d: -f1) + 11)); }
f_flip_tail_key() { # "lock" -> "lobk" in the last record
    local f o
    f=$(incr_file)
    o=$(lock_off "$f")
    flip_bit "$f" $((o + 2)) 0
    FAULT_NOTE="$FLIP_NOTE, the key name 'lock' of the last record becomes 'lobk'"
}
f_flip_tail_owner() { # owner "A" -> "@": "lock\r\n\$1\r\nA"
    local f o
    f=$(incr_file)
    o=$(lock_off "$f")
    flip_bit "$f" $((o + 10)) 0
    FAULT_NOTE="$FLIP_NOTE, the owner 'A' of the last record becomes '@'"
}
f_flip_tail_pxat() { # first digit of the PXAT timestamp '1' -> '0': expiry decades ago
    local f o
    f=$(incr_file)
    o=$(pxat_digits "$f")
    flip_bit "$f" "$o" 0
    FAULT_NOTE="$FLIP_NOTE, first digit of the lock's PXAT expiry (ms since 1970) '1' -> '0'"
}
f_flip_tail_pxat_shorten() { # clear a low set bit of the tens-of-seconds digit (or else the seconds digit): the lease ends 1-20 s early
    local f o idx d b=-1
    f=$(incr_file)
    o=$(pxat_digits "$f")
    for idx in 8 9; do
        d=$(($(od -An -tu1 -j $((o + idx)) -N1 "$f" | tr -d ' ') - 48))
        if ((d & 1)); then b=0; elif ((d & 2)); then b=1; elif ((idx == 9 && (d & 4))); then b=2; fi
        ((b >= 0)) && break
    done
    ((b < 0)) && { FAULT_NOTE="no suitable digit"; return; }
    flip_bit "$f" $((o + idx)) "$b"
    FAULT_NOTE="$FLIP_NOTE, digit $((idx + 1)) of 13 of the lock's PXAT expiry: the expiry moves $(((1 << b) * 10 ** (12 - idx) / 1000)) s earlier"
}
f_flip_tail_pxat_nondigit() { # the last digit of the PXAT becomes a non-digit
    local f o d b=3
    f=$(incr_file)
    o=$(($(pxat_digits "$f") + 12))
    d=$(od -An -tu1 -j "$o" -N1 "$f" | tr -d ' ')
    ((d >= 56)) && b=2
    flip_bit "$f" "$o" "$b"
    FAULT_NOTE="$FLIP_NOTE, the last digit of the lock's PXAT expiry becomes a non-digit"
}
f_flip_last_byte() { local f; f=$(incr_file); flip_bit "$f" $(($(fsize "$f") - 1)) 0; FAULT_NOTE="$FLIP_NOTE, the final LF"; }
f_zero_tail_4k() { local f z; f=$(incr_file); z=$(fsize "$f"); zero_range "$f" $((z - 4096)) 4096; FAULT_NOTE="bytes $((z - 4096))..$z of $z"; }
f_zero_mid_4k() { local f z; f=$(incr_file); z=$(fsize "$f"); zero_range "$f" $((z / 2 / 4096 * 4096)) 4096; FAULT_NOTE="4 KiB page at $((z / 2 / 4096 * 4096)) of $z"; }
f_append_zeros() { local f; f=$(incr_file); FAULT_NOTE="$(fsize "$f") + 4096 zero bytes"; append_zeros "$f" 4096; }
f_restore_old_copy() {
    rm -rf "$RUN/$CASE/data/appendonlydir"
    cp -a "$RUN/$CASE/appendonlydir.old" "$RUN/$CASE/data/appendonlydir"
    FAULT_NOTE="appendonlydir taken after k0..k$((NKEYS / 2 - 1))"
}
f_restore_old_incr() {
    local f
    f=$(incr_file)
    cp "$RUN/$CASE/appendonlydir.old/$(basename "$f")" "$f"
    FAULT_NOTE="only $(basename "$f") put back, taken after k0..k$((NKEYS / 2 - 1))"
}
f_restore_old_manifest() {
    cp "$RUN/$CASE/appendonlydir.old/appendonly.aof.manifest" "$RUN/$CASE/data/appendonlydir/"
    FAULT_NOTE="manifest from before a BGREWRITEAOF"
}
f_rm_manifest() { rm "$RUN/$CASE/data/appendonlydir/appendonly.aof.manifest"; FAULT_NOTE="files left: $(cd "$RUN/$CASE/data/appendonlydir" && for f in *; do printf "%s %s B; " "$f" "$(fsize "$f")"; done)"; }
f_rm_incr() { local f; f=$(incr_file); rm "$f"; FAULT_NOTE="$(basename "$f")"; }
after_aof_rm_manifest() { # the survey wrote lock B; restart once more: what does the new manifest load?
    local files
    files=$(cd "$RUN/$CASE/data/appendonlydir" && for f in *; do printf "%s %s B; " "$f" "$(fsize "$f")"; done)
    kill9 "$PID"
    start "$CASE" 3
    AFTER_NOTE="files after the restart: $files; a further kill -9 and start: $READY, dbsize $(cli DBSIZE), lock=$(cli GET lock)"
}
f_empty_manifest() { : >"$RUN/$CASE/data/appendonlydir/appendonly.aof.manifest"; FAULT_NOTE=""; }
f_base_cut_10() { local f; f=$(base_file); FAULT_NOTE="$(basename "$f") $(fsize "$f") -> $(($(fsize "$f") - 10))"; cut_tail "$f" 10; }
f_base_flip_mid() { local f; f=$(base_file); flip_bit "$f" $(($(fsize "$f") / 2)) 0; FAULT_NOTE="$(basename "$f") $FLIP_NOTE"; }
f_base_zero_tail() { local f z; f=$(base_file); z=$(fsize "$f"); zero_range "$f" $((z - 4096)) 4096; FAULT_NOTE="$(basename "$f") bytes $((z - 4096))..$z"; }
rdb() { echo "$RUN/$CASE/data/dump.rdb"; }
f_rdb_cut_10() { local f; f=$(rdb); FAULT_NOTE="$(fsize "$f") -> $(($(fsize "$f") - 10))"; cut_tail "$f" 10; }
f_rdb_cut_half() { local f; f=$(rdb); FAULT_NOTE="$(fsize "$f") -> $(($(fsize "$f") / 2))"; truncate_to "$f" $(($(fsize "$f") / 2)); }
f_rdb_flip_mid() { local f; f=$(rdb); flip_bit "$f" $(($(fsize "$f") / 2)) 0; FAULT_NOTE="$FLIP_NOTE"; }
f_rdb_flip_crc() { local f; f=$(rdb); flip_bit "$f" $(($(fsize "$f") - 3)) 0; FAULT_NOTE="$FLIP_NOTE (in the CRC64 trailer)"; }
f_rdb_zero_tail() { local f z; f=$(rdb); z=$(fsize "$f"); zero_range "$f" $((z - 4096)) 4096; FAULT_NOTE="bytes $((z - 4096))..$z of $z"; }
f_rdb_old_copy() { cp "$RUN/$CASE/dump.rdb.old" "$(rdb)"; FAULT_NOTE="dump.rdb of an earlier SAVE (k0..k$((NKEYS / 2 - 1)), no lock)"; }
wl_rdb_old() {
    write_keys 0 $((NKEYS / 2))
    cli SAVE >/dev/null
    cp "$(rdb)" "$RUN/$CASE/dump.rdb.old"
    write_keys $((NKEYS / 2)) $NKEYS
    NWRITTEN=$NKEYS
    LOCKA=$(take_lock A)
    cli SAVE >/dev/null
}

echo "| case | fault (server down) | config | server did | time to exit / PONG | its log (verbatim, prefix cut) | data after restart | lock after restart |" >"$TABLE"
echo "|---|---|---|---|---|---|---|---|" >>"$TABLE"

ALW="appendfsync always"
T_YES="aof-load-truncated yes"
T_NO="aof-load-truncated no"

# The lock question first.
run_case lock-none "none: kill -9 only" "$ALW" wl_basic f_none
run_case lock-cut-yes "cut the AOF at the start of the last record (the lock's SET): a whole record lost" "$ALW, $T_YES" wl_basic f_cut_last_record "$T_YES"
run_case lock-cut-no "cut the AOF at the start of the last record (the lock's SET): a whole record lost" "$ALW, $T_NO" wl_basic f_cut_last_record "$T_NO"
run_case lock-torn-yes "torn write: the last record cut in its middle" "$ALW, $T_YES" wl_basic f_torn_last_record "$T_YES"
run_case lock-torn-no "torn write: the last record cut in its middle" "$ALW, $T_NO" wl_basic f_torn_last_record "$T_NO"
run_case lock-script-cut-yes "cut the AOF at the start of the lock's MULTI ... EXEC block (lockcheck's EVAL)" "$ALW, $T_YES" wl_script_lock f_cut_last_block "$T_YES"
run_case lock-script-cut-no "cut the AOF at the start of the lock's MULTI ... EXEC block (lockcheck's EVAL)" "$ALW, $T_NO" wl_script_lock f_cut_last_block "$T_NO"
run_case lock-script-torn-yes "torn write: the lock block's EXEC cut in its middle" "$ALW, $T_YES" wl_script_lock f_torn_exec "$T_YES"
run_case lock-script-torn-no "torn write: the lock block's EXEC cut in its middle" "$ALW, $T_NO" wl_script_lock f_torn_exec "$T_NO"
run_case lock-old-copy "older copy of appendonlydir/ put back" "$ALW" wl_old_copy f_restore_old_copy
run_case lock-old-incr "older copy of the .incr.aof put back" "$ALW, $T_NO" wl_old_copy f_restore_old_incr "$T_NO"

# Truncation
run_case aof-cut1-yes "cut the last 1 byte of the .incr.aof" "$ALW, $T_YES" wl_basic f_cut_1 "$T_YES"
run_case aof-cut1-no "cut the last 1 byte of the .incr.aof" "$ALW, $T_NO" wl_basic f_cut_1 "$T_NO"
run_case aof-cut300-yes "cut the last 300 bytes of the .incr.aof" "$ALW, $T_YES" wl_basic f_cut_300 "$T_YES"
run_case aof-cut300-no "cut the last 300 bytes of the .incr.aof" "$ALW, $T_NO" wl_basic f_cut_300 "$T_NO"
# Bit flips
run_case aof-flip-mid-payload "bit flip mid-file, inside a value" "$ALW, $T_YES" wl_basic f_flip_mid_payload "$T_YES"
run_case aof-flip-mid-length "bit flip mid-file, in a bulk length digit" "$ALW, $T_YES" wl_basic f_flip_mid_length "$T_YES"
run_case aof-flip-mid-marker "bit flip mid-file, in a '\$' marker" "$ALW, $T_YES" wl_basic f_flip_mid_marker "$T_YES"
run_case aof-flip-tail-key "bit flip in the tail: the lock's key name" "$ALW, $T_YES" wl_basic f_flip_tail_key "$T_YES"
run_case aof-flip-tail-owner "bit flip in the tail: the lock's value (owner)" "$ALW, $T_YES" wl_basic f_flip_tail_owner "$T_YES"
run_case aof-flip-tail-pxat "bit flip in the tail: the lock's PXAT expiry, high digit" "$ALW, $T_YES" wl_basic f_flip_tail_pxat "$T_YES"
run_case aof-flip-tail-pxat-shorten "bit flip in the tail: the lock's PXAT expiry, a tens-of-seconds digit" "$ALW, $T_YES" wl_basic f_flip_tail_pxat_shorten "$T_YES"
run_case aof-flip-tail-pxat-nondigit "bit flip in the tail: the lock's PXAT expiry, a digit becomes a non-digit" "$ALW, $T_NO" wl_basic f_flip_tail_pxat_nondigit "$T_NO"
run_case aof-flip-last-byte "bit flip of the very last byte" "$ALW, $T_NO" wl_basic f_flip_last_byte "$T_NO"
# Zeros
run_case aof-zero-tail-yes "zero the last 4 KiB of the .incr.aof" "$ALW, $T_YES" wl_basic f_zero_tail_4k "$T_YES"
run_case aof-zero-tail-no "zero the last 4 KiB of the .incr.aof" "$ALW, $T_NO" wl_basic f_zero_tail_4k "$T_NO"
run_case aof-zero-mid "zero a 4 KiB page mid-file" "$ALW, $T_YES" wl_basic f_zero_mid_4k "$T_YES"
run_case aof-append-zeros-yes "4 KiB of zeros appended (size grew, data never written)" "$ALW, $T_YES" wl_basic f_append_zeros "$T_YES"
run_case aof-append-zeros-no "4 KiB of zeros appended (size grew, data never written)" "$ALW, $T_NO" wl_basic f_append_zeros "$T_NO"
# Files of the multi-part AOF
run_case aof-old-manifest "manifest from before a rewrite put back" "$ALW" wl_old_manifest f_restore_old_manifest
run_case aof-rm-manifest "manifest deleted" "$ALW" wl_basic f_rm_manifest
run_case aof-empty-manifest "manifest emptied (size 0)" "$ALW" wl_basic f_empty_manifest
run_case aof-rm-incr "the .incr.aof deleted" "$ALW" wl_basic f_rm_incr
run_case base-cut10 "cut 10 bytes off the .base.rdb (after BGREWRITEAOF)" "$ALW, $T_YES" wl_rewrite_then_lock f_base_cut_10 "$T_YES"
run_case base-flip-mid "bit flip mid .base.rdb" "$ALW, $T_YES" wl_rewrite_then_lock f_base_flip_mid "$T_YES"
run_case base-zero-tail "zero the last 4 KiB of the .base.rdb" "$ALW, $T_YES" wl_rewrite_then_lock f_base_zero_tail "$T_YES"
# RDB only (appendonly no, SAVE by hand; lockcheck's persistence none writes no RDB at all)
RDBC="appendonly no, SAVE"
run_case rdb-cut10 "cut 10 bytes off dump.rdb" "$RDBC" wl_rdb f_rdb_cut_10 "appendonly no"
run_case rdb-cut-half "dump.rdb truncated to half" "$RDBC" wl_rdb f_rdb_cut_half "appendonly no"
run_case rdb-flip-mid "bit flip mid dump.rdb" "$RDBC" wl_rdb f_rdb_flip_mid "appendonly no"
run_case rdb-flip-crc "bit flip in dump.rdb's checksum" "$RDBC" wl_rdb f_rdb_flip_crc "appendonly no"
run_case rdb-zero-tail "zero the last 4 KiB of dump.rdb" "$RDBC" wl_rdb f_rdb_zero_tail "appendonly no"
run_case rdb-old-copy "older dump.rdb put back" "$RDBC" wl_rdb_old f_rdb_old_copy "appendonly no"

# --- disk errors while running ---------------------------------------------------

# running_case NAME TEXT FSYNC MODE: MODE enospc (a 2 MiB tmpfs, nearly full)
# or eio-fsync (strace makes every fdatasync/fsync fail with EIO) or eio-write
# (strace makes the next write(2) fail with EIO).
running_case() {
    CASE=$1
    local text=$2 policy=$3 mode=$4
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    local dir=$RUN/$CASE
    disk_error_dir "$dir" "$mode" 2
    write_conf "$dir" "appendfsync $policy"
    start "$CASE" 1
    local server=$PID
    write_keys 0 50
    local before=$ACKED lock1
    lock1=$(take_lock A)
    local inject="fdatasync:error=EIO"
    [[ $mode == eio-write ]] && inject="write:error=EIO:when=1"
    disk_error_inject "$server" "$mode" "$dir" 2 "$inject"
    # Now write and watch: one SET every 50 ms for 3 s
    local i r first_err="" n_ok=0 n_err=0 t0 t_err="" oks=""
    t0=$(now_ms)
    for ((i = 0; i < 60; i++)); do
        r=$(redis-cli -p $PORT SET w$i "$(head -c 1000 /dev/zero | tr '\0' y)" 2>&1 | head -1)
        if [[ $r == OK ]]; then
            n_ok=$((n_ok + 1))
            ((n_ok <= 3)) && oks+="w$i "
        else
            n_err=$((n_err + 1))
            if [[ -z $first_err ]]; then first_err="$r (w$i)"; t_err=$(($(now_ms) - t0)); fi
        fi
        kill -0 "$server" 2>/dev/null || break
        sleep 0.05
    done
    local lockb=-
    kill -0 "$server" 2>/dev/null && lockb=$(timeout 5 redis-cli -p $PORT SET lock2 C NX PX 30000 2>&1 | head -1)
    # Heal, then see whether it recovers by itself.
    disk_error_heal "$server" "$mode" "$dir" 0.5
    local after="-" t
    if [[ $ALIVE == yes ]]; then
        for t in 1 2 3 4 5 6 7 8 9 10; do
            sleep 1
            after=$(redis-cli -p $PORT SET healed 1 2>&1 | head -1)
            [[ $after == OK ]] && break
        done
        after="$after (${t} s after the heal)"
        if [[ $after != OK* ]]; then
            redis-cli -p $PORT BGREWRITEAOF >/dev/null 2>&1
            wait_rewrite
            after+="; after BGREWRITEAOF: $(redis-cli -p $PORT SET healed 1 2>&1 | head -1)"
        fi
        kill9 "$server"
    else
        # the harness would restart it: what does it load?
        start "$CASE" 2
        if [[ $READY == up ]]; then
            after="restarted after the heal ($READY_MS ms): dbsize $(cli DBSIZE), lock $(cli GET lock), $(cli KEYS 'w*' | tr '\n' ' ')present; $(key_lines "$LOGS/$CASE.2.log" 4 | tr '\n' ' ')"
            kill9 "$PID"
        else
            after="restart after the heal: $READY; $(key_lines "$LOGS/$CASE.2.log" 4 | tr '\n' ' ')"
        fi
    fi
    local lines
    lines=$(key_lines "$LOGS/$CASE.1.log" 8)
    row "$RUNNING" "$CASE" "$text ($NOTE)" "appendfsync $policy" \
        "$n_ok OK / $n_err errors in $((n_ok + n_err)) SETs (first OKs: ${oks:-none}); first error after ${t_err:-?} ms: ${first_err:-none}" \
        "$(disk_error_process)" "${lines:-(no log lines)}" \
        "SET lock2 NX while failing: $lockb; after the heal: $after"
    disk_error_done "$dir" "$mode"
    return 0
}

echo "| case | disk fault (server running) | config | replies to writes | process | its log (verbatim, prefix cut) | lock / after heal |" >"$RUNNING"
echo "|---|---|---|---|---|---|---|" >>"$RUNNING"
running_case run-enospc-always "disk full (ENOSPC)" always enospc
running_case run-enospc-everysec "disk full (ENOSPC)" everysec enospc
running_case run-eio-fsync-always "fdatasync fails with EIO" always eio-fsync
running_case run-eio-fsync-everysec "fdatasync fails with EIO" everysec eio-fsync
running_case run-eio-write-always "one write(2) fails with EIO" always eio-write
running_case run-eio-write-everysec "one write(2) fails with EIO" everysec eio-write

cleanup_all
[[ ${KEEP:-0} == 1 ]] || rm -rf "$RUN"
echo "results: $TABLE $RUNNING"
