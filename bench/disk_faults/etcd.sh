#!/bin/bash
# etcd.sh: what Debian 12's etcd 3.4.23 does when its data files are damaged
# while it is down (lockcheck issue 40, "disks that lie"). Part 1: one member
# started with lockcheck's flags (clusters/etcd_node.cpp; fsync on). Part 2: a
# cluster of three, for faults a quorum can repair. Results: etcd/results/table.md,
# etcd/results/ensemble.md, logs in etcd/results/logs/. Idempotent; members are
# children of this script on 127.0.0.1 ports 12379/12380 (single) and
# 12371-12373/12381-12383 (cluster), SIGKILLed by PID on exit; etcd/run/ is
# removed at the end unless KEEP=1. Client: tools/etcdc.py (HTTP/JSON gateway).
#
#   bash etcd.sh [FILTER]     # only cases whose name contains FILTER

source "$(dirname "$(readlink -f "$0")")/lib.sh"

E=$DISK_ROOT/etcd
RUN=$E/run
RES=$E/results${1:+-$1}
LOGS=$RES/logs
TOOLS=$(dirname "$(readlink -f "$0")")/tools
NKEYS=200
FILTER=${1:-}
TABLE=$RES/table.md
ENSEMBLE=$RES/ensemble.md

rm -rf "$RUN" "$RES"
mkdir -p "$RUN" "$LOGS"

ec() { python3 "$TOOLS/etcdc.py" "$@" 2>&1; }
U1=http://127.0.0.1:12379
healthy() { curl -s -m 1 "$1/health" 2>/dev/null | grep -q '"health":"true"'; }
probe1() { healthy $U1; }
key_lines() { python3 "$TOOLS/zaplines.py" "$1" "${2:-6}" | sed "s|$RUN/[^/]*/||g"; }

# start_etcd NAME DATADIR CLIENT PEER INITIAL_CLUSTER LOG: lockcheck's flags; sets PID
start_etcd() {
    spawn "$6" etcd --name "$1" --data-dir "$2" --listen-client-urls "$3" --advertise-client-urls "$3" \
        --listen-peer-urls "$4" --initial-advertise-peer-urls "$4" --initial-cluster "$5" \
        --initial-cluster-state new --initial-cluster-token lockcheck-disk --heartbeat-interval 100 \
        --election-timeout 1000 --logger zap --log-outputs stderr
}

wal() { ls "$RUN/$CASE"/data/member/wal/*.wal | sort | tail -1; }
db() { echo "$RUN/$CASE/data/member/snap/db"; }
records() { python3 "$TOOLS/etcdwal.py" "$1"; }
rec_end() { records "$1" | awk '$1=="end"{print $2}'; }
lock_rec() { records "$1" | grep ' /lock$' | tail -1; } # OFFSET END DATAEND entry term T index I /lock
nrec() { records "$1" | grep -vc '^end'; }
nth_rec() { records "$1" | grep -v '^end' | sed -n "${2}p"; }

start1() {
    port_free 12379 || { echo "port 12379 is busy: not starting" >&2; READY="port busy"; READY_MS=0; return; }
    start_etcd n1 "$RUN/$1/data" $U1 http://127.0.0.1:12380 n1=http://127.0.0.1:12380 "$LOGS/$1.$2.log"
    wait_ready "$PID" probe1 20 || true
    if [[ $READY == up ]] && ! still_running "$PID" 0.5; then
        local rc=0
        wait "$PID" || rc=$?
        forget "$PID"
        READY="exit $rc (after answering /health)"
    fi
}

run_case() {
    CASE=$1
    local fault_text=$2 workload=$3 fault=$4
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    mkdir -p "$RUN/$CASE"
    start1 "$CASE" 1
    if [[ $READY != up ]]; then
        row "$TABLE" "$CASE" "$fault_text" "first start failed: $READY" "" "" "" ""
        return 0
    fi
    NWRITTEN=0 LOCKA="" FAULT_NOTE=""
    "$workload"
    sleep ${SETTLE:-1} # the backend commits every 100 ms: let it hold everything (the WAL does anyway)
    kill9 "$PID"
    "$fault"
    start1 "$CASE" 2
    local outcome=$READY survived="-" lock="-"
    if [[ $READY == up ]]; then
        outcome=started
        local a b s w g
        a=$(ec $U1 resume "$RUN/$CASE/leaseA")
        b=$(ec $U1 lock B "$RUN/$CASE/leaseB")
        s=$(ec $U1 survey "$NWRITTEN")
        w=$(ec $U1 put /after-restart yes)
        g=$(ec $U1 get /after-restart)
        survived="$s; a new put: $w, then $g"
        # (not in $(...): hooks may start or stop servers)
        if declare -F "after_${CASE//-/_}" >/dev/null; then "after_${CASE//-/_}"; survived+="; $AFTER_NOTE"; fi
        lock="A: $a; B: $b"
        kill9 "$PID"
    fi
    row "$TABLE" "$CASE" "$fault_text${FAULT_NOTE:+ ($FAULT_NOTE)}" "$outcome" "$READY_MS ms" \
        "$(key_lines "$LOGS/$CASE.2.log")" "$survived; lock A: $LOCKA" "$lock"
}

wl_basic() { # NKEYS puts, then the lock: a lease and a txn put (the last entries)
    NWRITTEN=$(ec $U1 write 0 $NKEYS | sed -n 's/^acked //p')
    LOCKA=$(ec $U1 lock A "$RUN/$CASE/leaseA")
}
wl_db_copy_then_lock() { # keys; a copy of the db (the backend's last commit before the lock); the lock
    NWRITTEN=$(ec $U1 write 0 $NKEYS | sed -n 's/^acked //p')
    sleep 0.5
    cp "$(db)" "$RUN/$CASE/db.before-lock"
    LOCKA=$(ec $U1 lock A "$RUN/$CASE/leaseA")
}
wl_old_copy() { # half; copy member/; the rest and the lock
    ec $U1 write 0 $((NKEYS / 2)) >/dev/null
    sleep 0.5
    cp -a "$RUN/$CASE/data/member" "$RUN/$CASE/member.old"
    ec $U1 write $((NKEYS / 2)) $NKEYS >/dev/null
    NWRITTEN=$NKEYS
    LOCKA=$(ec $U1 lock A "$RUN/$CASE/leaseA")
}

f_none() { :; }
f_cut_lock() { # the WAL loses the lock's entry and everything after it (its HardState)
    local f r
    f=$(wal)
    r=($(lock_rec "$f"))
    truncate_to "$f" "${r[0]}"
    FAULT_NOTE="$(basename "$f") cut at ${r[0]}, before the lock's entry (index ${r[7]}); the backend db still holds the lock"
}
f_cut_20() { # the WAL loses its last 20 entries (k190..k199, the lease, the lock...) which the db holds
    local f r
    f=$(wal)
    r=($(records "$f" | grep ' entry ' | tail -20 | head -1))
    truncate_to "$f" "${r[0]}"
    FAULT_NOTE="$(basename "$f") cut at ${r[0]}, before its last 20 entries (from index ${r[7]}); the backend db holds them all"
}
f_cut_lock_db_before() { # power loss after the WAL lost its tail and before the backend's next commit
    local f r
    f=$(wal)
    r=($(lock_rec "$f"))
    truncate_to "$f" "${r[0]}"
    cp "$RUN/$CASE/db.before-lock" "$(db)"
    FAULT_NOTE="$(basename "$f") cut at ${r[0]}, before the lock's entry (index ${r[7]}); snap/db put back to its copy from before the lock"
}
after_wal_cut_20() { # how many further puts time out (and never apply) before writes work again?
    local i r n=0 first_ok="" applied=0
    for ((i = 1; i <= 30; i++)); do
        r=$(timeout 3 python3 "$TOOLS/etcdc.py" $U1 put "/n$i" x 2>&1)
        if [[ $r == "put revision"* ]]; then [[ -z $first_ok ]] && first_ok=$i; else n=$((n + 1)); fi
    done
    for ((i = 1; i <= 30; i++)); do [[ $(ec $U1 get "/n$i") == *": x "* ]] && applied=$((applied + 1)); done
    AFTER_NOTE="30 more puts /n1../n30: $n timed out, the first to succeed was /n${first_ok:-none}; $applied of the 30 keys exist afterwards"
}
f_zero_lock() { # the same records zeroed, the preallocated size kept
    local f r e
    f=$(wal)
    r=($(lock_rec "$f"))
    e=$(rec_end "$f")
    zero_range "$f" "${r[0]}" $((e - r[0]))
    FAULT_NOTE="$(basename "$f") bytes ${r[0]}..$e (the lock's entry and the HardState after it) zeroed, size kept"
}
f_torn() { # the last record cut in its middle
    local f r
    f=$(wal)
    r=($(records "$f" | grep -v '^end' | tail -1))
    local cut=$((r[0] + (r[1] - r[0]) / 2))
    truncate_to "$f" "$cut"
    FAULT_NOTE="$(basename "$f") cut at $cut, the middle of its last record (${r[3]} ${r[0]}..${r[1]})"
}
f_torn_lock_keep_size() { # the second half of the lock's entry zeros, the rest of the file (zeros) kept
    local f r e
    f=$(wal)
    r=($(lock_rec "$f"))
    e=$(rec_end "$f")
    local cut=$((r[0] + (r[1] - r[0]) / 2))
    zero_range "$f" "$cut" $((e - cut))
    FAULT_NOTE="$(basename "$f") bytes $cut..$e zeroed (from the middle of the lock's entry), size kept"
}
wl_big_last() { # as wl_basic, then one put of 3000 bytes: the last entry spans several 512-byte sectors
    wl_basic
    ec $U1 put /big "$(head -c 3000 /dev/zero | tr '\0' z)" >/dev/null
}
f_torn_sectors() { # the big entry's sectors after its first one never written (zeros), size kept
    local f r e s
    f=$(wal)
    r=($(records "$f" | grep ' entry ' | tail -1))
    e=$(rec_end "$f")
    s=$(((r[0] / 512 + 1) * 512))
    zero_range "$f" "$s" $((e - s))
    FAULT_NOTE="$(basename "$f"): the last entry (${r[0]}..${r[1]}, 3000-byte put /big) zeroed from the sector boundary $s to the end of the records ($e), size kept"
}
f_flip_mid() {
    local f n r
    f=$(wal)
    n=$(nrec "$f")
    r=($(nth_rec "$f" $((n / 2))))
    flip_bit "$f" $(((r[0] + 8 + r[2]) / 2)) 0
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE in the middle of record $((n / 2)) of $n (${r[3]} ${r[4]:-} ${r[5]:-} ${r[6]:-} ${r[7]:-})"
}
f_flip_lock() {
    local f r
    f=$(wal)
    r=($(lock_rec "$f"))
    flip_bit "$f" $(((r[0] + 8 + r[2]) / 2)) 0
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE in the middle of the lock's entry"
}
f_flip_tail() { # inside the very last record (the HardState after the lock)
    local f r
    f=$(wal)
    r=($(records "$f" | grep -v '^end' | tail -1))
    flip_bit "$f" $((r[2] - 2)) 0
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE inside the last record (${r[3]}), in its data"
}
f_flip_len_mid() { # a length field mid-WAL: the frame grows by 64 bytes
    local f n r
    f=$(wal)
    n=$(nrec "$f")
    r=($(nth_rec "$f" $((n / 2))))
    flip_bit "$f" "${r[0]}" 6
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE: the length field of record $((n / 2)) of $n"
}
f_zero_tail_4k() {
    local f e
    f=$(wal)
    e=$(rec_end "$f")
    zero_range "$f" $((e - 4096)) 4096
    FAULT_NOTE="$(basename "$f") bytes $((e - 4096))..$e zeroed (the records end at $e)"
}
f_zero_mid_4k() {
    local f e p
    f=$(wal)
    e=$(rec_end "$f")
    p=$((e / 2 / 4096 * 4096))
    zero_range "$f" "$p" 4096
    FAULT_NOTE="$(basename "$f") page $p..$((p + 4096)) zeroed (records end at $e)"
}
f_restore_old_member() {
    rm -rf "$RUN/$CASE/data/member"
    cp -a "$RUN/$CASE/member.old" "$RUN/$CASE/data/member"
    FAULT_NOTE="member/ copied after k0..k$((NKEYS / 2 - 1))"
}
f_restore_old_wal() {
    rm -rf "$RUN/$CASE/data/member/wal"
    cp -a "$RUN/$CASE/member.old/wal" "$RUN/$CASE/data/member/wal"
    FAULT_NOTE="member/wal/ copied after k0..k$((NKEYS / 2 - 1)); snap/db current"
}
f_restore_old_db() {
    cp "$RUN/$CASE/member.old/snap/db" "$(db)"
    FAULT_NOTE="member/snap/db copied after k0..k$((NKEYS / 2 - 1)); WAL current"
}
f_rm_wal() { rm -rf "$RUN/$CASE/data/member/wal"; FAULT_NOTE="member/wal/ deleted, snap/db kept"; }
f_rm_db() { rm "$(db)"; FAULT_NOTE="member/snap/db deleted, WAL kept"; }
f_db_cut() { local f; f=$(db); FAULT_NOTE="db $(fsize "$f") -> $(($(fsize "$f") - 4096)) (the last page)"; cut_tail "$f" 4096; }
f_db_cut_half() { local f; f=$(db); FAULT_NOTE="db $(fsize "$f") -> $(($(fsize "$f") / 2))"; truncate_to "$f" $(($(fsize "$f") / 2)); }
f_db_flip_mid() { local f; f=$(db); flip_bit "$f" $(($(fsize "$f") / 2 + 100)) 0; FAULT_NOTE="db $FLIP_NOTE (a page in the middle)"; }
f_db_flip_values() { # a bit inside a stored value ("value-of-k...")
    local f o
    f=$(db)
    o=$(grep -boa 'value-of-k100:' "$f" | head -1 | cut -d: -f1)
    flip_bit "$f" $((o + 20)) 0
    FAULT_NOTE="db $FLIP_NOTE, inside the stored value of /data/k100"
}
f_db_flip_lock_value() { # the lock's owner in the db
    local f o
    f=$(db)
    o=$(grep -boa '/lock' "$f" | tail -1 | cut -d: -f1)
    FAULT_NOTE="db: '/lock' found at $o; "
    flip_bit "$f" $((o + 3)) 0
    FAULT_NOTE+="$FLIP_NOTE, in the key '/lock' as stored in the db"
}
f_db_zero_tail() { local f z; f=$(db); z=$(fsize "$f"); zero_range "$f" $((z - 4096)) 4096; FAULT_NOTE="db bytes $((z - 4096))..$z zeroed (its last page)"; }
f_db_zero_meta0() { zero_range "$(db)" 0 4096; FAULT_NOTE="db page 0 (meta 0) zeroed"; }
f_db_zero_meta01() { zero_range "$(db)" 0 8192; FAULT_NOTE="db pages 0 and 1 (both meta pages) zeroed"; }
f_db_zero_mid() { local f z p; f=$(db); z=$(fsize "$f"); p=$((z / 2 / 4096 * 4096)); zero_range "$f" "$p" 4096; FAULT_NOTE="db page at $p of $z zeroed"; }

echo "| case | fault (member down) | member did | time to exit / healthy | its log (level: msg (fields), verbatim) | data after restart | lock after restart (A's lease, then B's txn) |" >"$TABLE"
echo "|---|---|---|---|---|---|---|" >>"$TABLE"

run_case none "none: kill -9 only" wl_basic f_none
run_case wal-cut-lock "WAL cut before the lock's entry (db committed after it)" wl_basic f_cut_lock
run_case wal-cut-lock-db-before "WAL cut before the lock's entry, db from before the lock (its last commit not synced)" wl_db_copy_then_lock f_cut_lock_db_before
run_case wal-cut-20 "WAL cut before its last 20 entries (db committed after them)" wl_basic f_cut_20
run_case wal-zero-lock "WAL: the lock's entry and what follows zeroed, size kept" wl_basic f_zero_lock
run_case wal-torn "torn write: the WAL's last record cut in its middle" wl_basic f_torn
run_case wal-torn-keep-size "torn write: the lock's entry half zeros, size kept" wl_basic f_torn_lock_keep_size
run_case wal-torn-sectors "torn write: a multi-sector last entry with only its first sector written" wl_big_last f_torn_sectors
run_case wal-flip-mid "bit flip mid-WAL, in a record's body" wl_basic f_flip_mid
run_case wal-flip-lock "bit flip in the lock's entry" wl_basic f_flip_lock
run_case wal-flip-tail "bit flip in the last record" wl_basic f_flip_tail
run_case wal-flip-len-mid "bit flip in a length field mid-WAL" wl_basic f_flip_len_mid
run_case wal-zero-tail "zero the last 4 KiB of the WAL's records" wl_basic f_zero_tail_4k
run_case wal-zero-mid "zero a 4 KiB page mid-WAL" wl_basic f_zero_mid_4k
run_case old-member "older copy of member/ (WAL and db) put back" wl_old_copy f_restore_old_member
run_case old-wal "older copy of member/wal/ put back (db current)" wl_old_copy f_restore_old_wal
run_case old-db "older copy of member/snap/db put back (WAL current)" wl_old_copy f_restore_old_db
run_case rm-wal "member/wal/ deleted" wl_basic f_rm_wal
run_case rm-db "member/snap/db deleted" wl_basic f_rm_db
run_case db-cut "db: the last 4 KiB page cut off" wl_basic f_db_cut
run_case db-cut-half "db truncated to half" wl_basic f_db_cut_half
run_case db-flip-mid "db: bit flip in a middle page" wl_basic f_db_flip_mid
run_case db-flip-value "db: bit flip inside a stored value" wl_basic f_db_flip_values
run_case db-flip-lock-key "db: bit flip in the stored key /lock" wl_basic f_db_flip_lock_value
run_case db-zero-tail "db: the last 4 KiB page zeroed" wl_basic f_db_zero_tail
run_case db-zero-mid "db: a middle 4 KiB page zeroed" wl_basic f_db_zero_mid
run_case db-zero-meta0 "db: meta page 0 zeroed" wl_basic f_db_zero_meta0
run_case db-zero-meta01 "db: both meta pages zeroed" wl_basic f_db_zero_meta01

# --- part 1b: disk errors while running (one member) --------------------------------

RUNNING=$RES/running.md
# running_case NAME TEXT MODE: eio-fsync (strace: every fsync/fdatasync fails with
# EIO) or enospc (data dir on a 256 MiB tmpfs, filled up after start, then puts of 100 kB)
running_case() {
    CASE=$1
    local text=$2 mode=$3
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    local dir=$RUN/$CASE
    disk_error_dir "$dir" "$mode" 256
    start1 "$CASE" 1
    local server=$PID
    ec $U1 write 0 50 >/dev/null
    disk_error_inject "$server" "$mode" "$dir" 256
    local i r ok=0 err=0 first="" t0 big
    big=$(head -c 100000 /dev/zero | tr '\0' y)
    t0=$(now_ms)
    for ((i = 0; i < 60; i++)); do
        if [[ $mode == enospc ]]; then r=$(timeout 10 python3 "$TOOLS/etcdc.py" $U1 put /big$i "$big" 2>&1)
        else r=$(timeout 10 python3 "$TOOLS/etcdc.py" $U1 put /w$i x 2>&1); fi
        if [[ $r == "put revision"* ]]; then ok=$((ok + 1)); else
            err=$((err + 1))
            [[ -z $first ]] && first="${r:-timeout} (put $i, after $(($(now_ms) - t0)) ms)"
        fi
        kill -0 "$server" 2>/dev/null || break
        [[ $mode == eio-fsync ]] && ((i >= 19)) && break
    done
    disk_error_heal "$server" "$mode" "$dir"
    local after
    if [[ $ALIVE == yes ]]; then
        sleep 2
        after="2 s after the heal: $(timeout 10 python3 "$TOOLS/etcdc.py" $U1 put /healed 1 2>&1)"
        kill9 "$server"
    else
        start1 "$CASE" 2
        after="restarted after the heal: $READY ($READY_MS ms)"
        [[ $READY == up ]] && after+=", $(ec $U1 survey 50)" && kill9 "$PID"
        after+="; $(key_lines "$LOGS/$CASE.2.log" 3 | tr '\n' ' ')"
    fi
    row "$RUNNING" "$CASE" "$text ($NOTE)" "$ok acked, $err failed; first failure: ${first:-none}" \
        "$(disk_error_process)" "$(key_lines "$LOGS/$CASE.1.log" 6)" "$after"
    disk_error_done "$dir" "$mode"
    return 0
}
echo "| case | disk fault (member running) | puts | process | its log | after the heal |" >"$RUNNING"
echo "|---|---|---|---|---|---|" >>"$RUNNING"
running_case run-eio-fsync "fsync/fdatasync fail with EIO" eio-fsync
running_case run-enospc "disk full (ENOSPC)" enospc

# --- part 2: three members ----------------------------------------------------------

CLUSTER="n1=http://127.0.0.1:12381,n2=http://127.0.0.1:12382,n3=http://127.0.0.1:12383"
EPID=() ESPAWN=() EREADY=()
curl_url() { echo "http://127.0.0.1:$((12370 + $1))"; }
estart() {
    start_etcd "n$1" "$EDIR/n$1" "$(curl_url "$1")" "http://127.0.0.1:$((12380 + $1))" "$CLUSTER" "$LOGS/$CASE.n$1.$2.log"
    EPID[$1]=$PID
    ESPAWN[$1]=$SPAWN_MS
}
ewait() { # I...: until each is healthy (has a leader), exits, or 20 s pass
    local i deadline
    deadline=$(($(now_ms) + 20000))
    for i in "$@"; do
        while :; do
            if [[ -z ${EPID[$i]:-} ]]; then EREADY[$i]="n$i not running"; break; fi
            if ! kill -0 "${EPID[$i]}" 2>/dev/null; then
                local rc=0
                wait "${EPID[$i]}" || rc=$?
                forget "${EPID[$i]}"
                unset "EPID[$i]"
                EREADY[$i]="n$i exit $rc"
                break
            fi
            if healthy "$(curl_url "$i")"; then EREADY[$i]="n$i healthy after $(($(now_ms) - ESPAWN[$i])) ms"; break; fi
            if (($(now_ms) > deadline)); then EREADY[$i]="n$i not healthy after 20 s"; break; fi
            sleep 0.1
        done
    done
}
ekill() { local i; for i in "$@"; do [[ -n ${EPID[$i]:-} ]] && kill9 "${EPID[$i]}"; unset "EPID[$i]"; done; }
leader_of() { # the member id of the leader, as member I sees it; then its name
    local st
    st=$(curl -s -m 1 -X POST -d '{}' "$(curl_url "$1")/v3/maintenance/status")
    echo "$st" | python3 -c 'import json,sys; j=json.load(sys.stdin); print(j.get("leader",""), j["header"]["member_id"])' 2>/dev/null
}
ewal() { ls "$EDIR/n$1"/member/wal/*.wal | sort | tail -1; }
cut_lock_on() {
    local i f r
    for i in "$@"; do
        f=$(ewal "$i")
        r=($(lock_rec "$f"))
        truncate_to "$f" "${r[0]}"
        FAULT_NOTE+="n$i: WAL cut before the lock's entry (index ${r[7]}); "
    done
}
flip_on() {
    local i f n r
    for i in "$@"; do
        f=$(ewal "$i")
        n=$(nrec "$f")
        r=($(nth_rec "$f" $((n / 2))))
        flip_bit "$f" $(((r[0] + 8 + r[2]) / 2)) 0
        FAULT_NOTE+="n$i: WAL $FLIP_NOTE in record $((n / 2)) of $n; "
    done
}
others() { local i o=""; for i in 1 2 3; do [[ $i != "$LEADER" ]] && o+="$i "; done; echo $o; }
d_leader_cut() { cut_lock_on "$LEADER"; }
d_two_cut() { cut_lock_on $(others); }
d_two_cut_db_too() { # the two followers lose the lock in the WAL and their db goes back too (older copy)
    local i
    for i in $(others); do cp "$EDIR/n$i.db.old" "$EDIR/n$i/member/snap/db"; done
    cut_lock_on $(others)
    FAULT_NOTE+="their snap/db put back to a copy taken before the lock"
}
d_flip_one() { flip_on "$LEADER"; }
d_flip_two() { flip_on $(others); }
d_wipe_one() { rm -rf "$EDIR/n$LEADER/member"; FAULT_NOTE="n$LEADER: member/ deleted"; }

ens_case() {
    CASE=$1
    local text=$2 damage=$3 restart=$4
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    EDIR=$RUN/$CASE
    mkdir -p "$EDIR"
    local i
    for i in 1 2 3; do port_free $((12370 + i)) || { echo "port $((12370 + i)) is busy: skipping $CASE" >&2; return 0; }; done
    for i in 1 2 3; do estart "$i" 1; done
    ewait 1 2 3
    local hosts=$(curl_url 1)
    NWRITTEN=$(ec "$hosts" write 0 $NKEYS | sed -n 's/^acked //p')
    sleep 0.5
    for i in 1 2 3; do cp "$EDIR/n$i/member/snap/db" "$EDIR/n$i.db.old"; done
    LOCKA=$(ec "$hosts" lock A "$EDIR/leaseA")
    # who leads
    local l id
    read -r l id < <(leader_of 1)
    LEADER=1
    for i in 1 2 3; do
        read -r l id < <(leader_of "$i")
        [[ -n $l && $l == "$id" ]] && LEADER=$i
    done
    sleep 1
    ekill 1 2 3
    FAULT_NOTE=""
    "$damage"
    [[ $restart == others ]] && restart=$(others)
    for i in $restart; do estart "$i" 2; done
    ewait $restart
    local after="" lines=""
    for i in $restart; do after+="${EREADY[$i]}; "; done
    local url="" a b s
    for i in $restart; do [[ -n ${EPID[$i]:-} ]] && url=$(curl_url "$i") && break; done
    if [[ -n $url ]]; then
        a=$(ec "$url" resume "$EDIR/leaseA")
        b=$(ec "$url" lock B "$EDIR/leaseB")
        s=$(ec "$url" survey "$NWRITTEN")
    else
        a="-" b="-" s="no member running"
    fi
    local late=""
    for i in 1 2 3; do
        if [[ " $restart " != *" $i "* ]]; then
            estart "$i" 3
            ewait "$i"
            sleep 1
            late+="${EREADY[$i]}: $(ec "$(curl_url "$i")" survey "$NWRITTEN"); "
        fi
    done
    local view=""
    for i in 1 2 3; do [[ -n ${EPID[$i]:-} ]] && view+="n$i $(ec "$(curl_url "$i")" get /lock); "; done
    for i in 1 2 3; do lines+="n$i: $(key_lines "$LOGS/$CASE.n$i.2.log" 3 2>/dev/null)"$'\n'; done
    for i in 1 2 3; do [[ -f $LOGS/$CASE.n$i.3.log ]] && lines+="n$i (joining later): $(key_lines "$LOGS/$CASE.n$i.3.log" 3)"$'\n'; done
    row "$ENSEMBLE" "$CASE" "$text${FAULT_NOTE:+ ($FAULT_NOTE)}" "leader before: n$LEADER; after the damage: $after" \
        "$lines" "$s; lock A: $LOCKA" "A: $a; B: $b${late:+; later: $late}; each member's /lock at the end: $view"
    ekill 1 2 3
    return 0
}

echo "| case | fault (every member killed, then damage) | members | their logs | data after restart | lock after restart |" >"$ENSEMBLE"
echo "|---|---|---|---|---|---|" >>"$ENSEMBLE"
ens_case ens-one-cut "the leader's WAL loses the lock's entry; all three restart" d_leader_cut "1 2 3"
ens_case ens-two-cut-all "two followers' WALs lose the lock's entry; all three restart" d_two_cut "1 2 3"
ens_case ens-two-cut-only "two followers' WALs lose the lock's entry; only they restart, then the third" d_two_cut others
ens_case ens-two-cut-db-only "two followers' WALs and dbs lose the lock; only they restart, then the third" d_two_cut_db_too others
ens_case ens-flip-one "bit flip mid-WAL on the leader; all three restart" d_flip_one "1 2 3"
ens_case ens-flip-two "bit flip mid-WAL on two followers; all three restart" d_flip_two "1 2 3"
ens_case ens-wipe-one "the leader's member/ deleted; all three restart" d_wipe_one "1 2 3"

cleanup_all
[[ ${KEEP:-0} == 1 ]] || rm -rf "$RUN"
echo "results: $TABLE $ENSEMBLE"
