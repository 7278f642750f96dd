#!/bin/bash
# mariadb.sh: what Debian 12's MariaDB 10.11 does when its data files are
# damaged while it is down (lockcheck issue 40, "disks that lie"). One server
# installed and started exactly as lockcheck does (clusters/mariadb_node.cpp:
# mariadb-install-db --no-defaults ... --innodb-log-file-size=8M; mariadbd
# --no-defaults, binlog on, innodb_flush_log_at_trx_commit=1, sync_binlog=0),
# on 127.0.0.1:13306 and a socket in its own directory. The lock is lockcheck's
# mysql-table-record: a row ('lock', owner, expiry) in lc.locks, taken by INSERT
# (a duplicate key refuses it). Results: mariadb/results/table.md, logs in
# mariadb/results/logs/. Idempotent; every server is a child of this script,
# SIGKILLed by PID on exit; mariadb/run/ is removed at the end unless KEEP=1.
#
#   bash mariadb.sh [FILTER]     # only cases whose name contains FILTER

source "$(dirname "$(readlink -f "$0")")/lib.sh"

M=$DISK_ROOT/mariadb
RUN=$M/run
RES=$M/results${1:+-$1}
LOGS=$RES/logs
NKEYS=200
FILTER=${1:-}
TABLE=$RES/table.md
TEMPLATE=$RUN/template

rm -rf "$RUN" "$RES"
mkdir -p "$RUN" "$LOGS"

# The installed data directory every case starts from (lockcheck's installer call).
mkdir -p "$TEMPLATE/tmp"
mariadb-install-db --no-defaults --user=root --datadir="$TEMPLATE/data" --tmpdir="$TEMPLATE/tmp" --skip-test-db \
    --auth-root-authentication-method=socket --innodb-log-file-size=8M >"$LOGS/install.log" 2>&1 ||
    { echo "mariadb-install-db failed: see $LOGS/install.log"; exit 1; }

sql() { mariadb -S "$RUN/$CASE/mysqld.sock" -u root -N -B "$@" 2>&1; }
probe() { mariadb -S "$RUN/$CASE/mysqld.sock" -u root -N -e 'SELECT 1' >/dev/null 2>&1; }

# start NAME N [EXTRA_ARGS...]: lockcheck's command line; sets PID, READY, READY_MS
start() {
    local name=$1 n=$2
    shift 2
    local dir=$RUN/$name
    port_free 13306 || { echo "port 13306 is busy: not starting" >&2; READY="port busy"; READY_MS=0; return; }
    spawn "$LOGS/$name.$n.log" mariadbd --no-defaults --user=root --datadir="$dir/data" --socket=../mysqld.sock \
        --pid-file="$dir/mysqld.pid" --tmpdir="$dir/tmp" --bind-address=127.0.0.1 --port=13306 --server-id=1 \
        --log-bin=mysql-bin --relay-log=relay-bin --log-slave-updates=1 --binlog-format=ROW --skip-name-resolve \
        --innodb-buffer-pool-size=32M --innodb-log-file-size=8M --performance-schema=OFF \
        --innodb-flush-log-at-trx-commit=1 --sync-binlog=0 "$@"
    wait_ready "$PID" probe 60 || true
    if [[ $READY == up ]] && ! still_running "$PID" 0.3; then
        local rc=0
        wait "$PID" || rc=$?
        forget "$PID"
        READY="exit $rc (after answering)"
    fi
}

# what the server said about recovery, verbatim (timestamp and thread id cut, paths
# shortened): a few recovery notes, then every error and warning
key_lines() {
    local clean
    clean=$(sed -E 's/^[0-9-]+ +[0-9:]+ [0-9]+ //' "$1" | sed "s|$RUN/[^/]*/||g" | grep -vE 'Could not increase number of max_open_files|proxies_priv')
    {
        echo "$clean" | grep -E 'Starting crash recovery from checkpoint|End of log at LSN|Rolled back recovered transaction|was in the XA prepared state|in prepared state after recovery|[Dd]oublewrite|Restoring|Recovered page|Last binlog file' | head -5
        echo "$clean" | grep -E 'FATAL|Assertion failure|Failing assertion|got signal [0-9]+' | head -3
        echo "$clean" | grep -E '\[ERROR\]|\[Warning\]' | head -${2:-6}
    } | awk '!seen[$0]++'
}

ibd() { echo "$RUN/$CASE/data/lc/$1.ibd"; }
redo() { echo "$RUN/$CASE/data/ib_logfile0"; }
binlog() { ls "$RUN/$CASE"/data/mysql-bin.[0-9]* | sort | tail -1; }
# where the written redo ends (the log has not wrapped: 8 MiB, a few hundred KiB written)
redo_end() {
    python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
e = len(d.rstrip(b"\0"))
print(e)' "$(redo)"
}
# the byte offset of the start of the last transaction (its GTID event) in the binlog
last_gtid_at() { mariadb-binlog "$(binlog)" 2>/dev/null | awk '/^# at /{at=$3} /GTID [0-9]+-[0-9]+-[0-9]+/{g=at} END{print g}'; }

run_case() {
    CASE=$1
    local fault_text=$2 workload=$3 fault=$4
    shift 4
    local extra=("$@")
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    mkdir -p "$RUN/$CASE/tmp"
    cp -a "$TEMPLATE/data" "$RUN/$CASE/data"
    start "$CASE" 1 "${extra[@]+"${extra[@]}"}"
    if [[ $READY != up ]]; then
        row "$TABLE" "$CASE" "$fault_text" "first start failed: $READY" "" "" "" ""
        return 0
    fi
    NWRITTEN=0 LOCKA="" FAULT_NOTE=""
    sql -e "CREATE DATABASE lc; CREATE TABLE lc.data (k INT PRIMARY KEY, v VARCHAR(64)) ENGINE=InnoDB;
            CREATE TABLE lc.locks (name VARCHAR(64) PRIMARY KEY, owner VARCHAR(64), expires DATETIME(3)) ENGINE=InnoDB;" >/dev/null
    "$workload"
    kill9 "$PID"
    "$fault"
    start "$CASE" 2 "${extra[@]+"${extra[@]}"}"
    local outcome=$READY survived="-" lock="-"
    if [[ $READY == up ]]; then
        outcome=started
        local n bad l b
        n=$(sql -e "SELECT COUNT(*) FROM lc.data" | grep -v '^-*$' | tr '\n' ' ')
        bad=$(sql -e "SELECT COUNT(*) FROM lc.data WHERE v <> CONCAT('value-of-k', k, ':', REPEAT('x', 30))" | grep -v '^-*$' | tr '\n' ' ')
        l=$(sql -e "SELECT owner FROM lc.locks WHERE name='lock'" | grep -v '^-*$' | tr '\n' ' ')
        b=$(sql -e "INSERT INTO lc.locks VALUES ('lock','B', NOW(3) + INTERVAL 30 SECOND)" | grep -v '^-*$' | grep -v '^INSERT' | tr '\n' ' ')
        survived="rows: ${n}of $NWRITTEN, altered: $bad"
        lock="lock row owner: ${l:-none}; B's INSERT: ${b:-OK (granted to B)}"
        kill9 "$PID"
    fi
    row "$TABLE" "$CASE" "$fault_text${FAULT_NOTE:+ ($FAULT_NOTE)}" "${extra[*]+"${extra[*]}"}" "$outcome" "$READY_MS ms" \
        "$(key_lines "$LOGS/$CASE.2.log")" "$survived; lock A: $LOCKA" "$lock"
}

write_rows() { # FROM TO: one autocommit INSERT each
    local i
    for ((i = $1; i < $2; i++)); do echo "INSERT INTO lc.data VALUES ($i, CONCAT('value-of-k', $i, ':', REPEAT('x', 30)));"; done | sql
}
take_lock() { sql -e "INSERT INTO lc.locks VALUES ('lock','$1', NOW(3) + INTERVAL 30 SECOND)"; }
# flush every dirty page and wait for a checkpoint past them: the data files then
# hold the rows and the redo log is no longer needed to recover them
flush_all() {
    sql -e "SET GLOBAL innodb_max_dirty_pages_pct_lwm=0.001; SET GLOBAL innodb_max_dirty_pages_pct=0" >/dev/null
    local i lsn ckpt dirty
    for ((i = 0; i < 200; i++)); do
        dirty=$(sql -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'" | awk '{print $2}')
        lsn=$(sql -e "SHOW ENGINE INNODB STATUS\G" | awk '/^Log sequence number/{print $4}')
        ckpt=$(sql -e "SHOW ENGINE INNODB STATUS\G" | awk '/^Last checkpoint at/{print $4}')
        [[ $dirty == 0 && -n $lsn && $((lsn - ckpt)) -lt 100 ]] && break
        sleep 0.1
    done
    FLUSHED="dirty pages $dirty, LSN $lsn, checkpoint $ckpt"
}

lsn() { sql -e "SHOW ENGINE INNODB STATUS\G" | awk '/^Log sequence number/{print $4}'; }
wl_basic() {
    write_rows 0 $NKEYS
    NWRITTEN=$NKEYS
    LOCKA=$(take_lock A)
    LOCKA=${LOCKA:-OK}
    REDO_LSN=$(lsn)
}
# the torn-page set-up: tables and rows flushed and checkpointed; then the lock
# row, and only locks.ibd's pages flushed (FLUSH TABLES ... FOR EXPORT, through
# the doublewrite buffer): the page with the lock row was written after the last
# checkpoint, as a page the page cleaner was writing when the power went.
wl_torn_setup() {
    write_rows 0 $NKEYS
    NWRITTEN=$NKEYS
    flush_all
    sql -e "SET GLOBAL innodb_max_dirty_pages_pct=90; SET GLOBAL innodb_max_dirty_pages_pct_lwm=0" >/dev/null
    LOCKA=$(take_lock A)
    LOCKA=${LOCKA:-OK}
    sql -e "FLUSH TABLES lc.locks FOR EXPORT; UNLOCK TABLES" >/dev/null
    local ck
    ck=$(sql -e "SHOW ENGINE INNODB STATUS\G" | awk '/^Last checkpoint at/{print $4}')
    LOCKA+=" (then locks.ibd flushed: LSN $(lsn), checkpoint $ck, dirty pages $(sql -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'" | awk '{print $2}'))"
}
wl_flushed() { # rows and the lock, then every page flushed and checkpointed
    wl_basic
    flush_all
    LOCKA+=" ($FLUSHED)"
}
wl_old_copy() { # half the rows; copy the datadir (server running, nothing in flight); the rest and the lock
    write_rows 0 $((NKEYS / 2))
    flush_all
    cp -a "$RUN/$CASE/data" "$RUN/$CASE/data.old"
    write_rows $((NKEYS / 2)) $NKEYS
    NWRITTEN=$NKEYS
    LOCKA=$(take_lock A)
    LOCKA=${LOCKA:-OK}
}
wl_old_copy_flushed() { wl_old_copy; flush_all; LOCKA+=" (then $FLUSHED)"; }

f_none() { :; }
# --- redo log (ib_logfile0) ---
f_redo_zero_tail() { # the last 4 KiB block of written redo (the lock's commit) never reached the disk
    local e s
    e=$(redo_end)
    s=$(((e - 1) / 4096 * 4096))
    zero_range "$(redo)" "$s" $((e - s))
    FAULT_NOTE="ib_logfile0 bytes $s..$e zeroed: the last 4 KiB block written (redo ends at $e)"
}
f_redo_zero_tail_8k() {
    local e s
    e=$(redo_end)
    s=$(((e - 1) / 4096 * 4096 - 4096))
    zero_range "$(redo)" "$s" $((e - s))
    FAULT_NOTE="ib_logfile0 bytes $s..$e zeroed: the last two 4 KiB blocks (redo ends at $e)"
}
f_redo_torn() { # the last 4 KiB block: only its first 512-byte sector written
    local e s
    e=$(redo_end)
    s=$(((e - 1) / 4096 * 4096 + 512))
    ((s < e)) && zero_range "$(redo)" "$s" $((e - s))
    FAULT_NOTE="ib_logfile0 bytes $s..$e zeroed: the last 4 KiB block torn after its first sector (redo ends at $e)"
}
f_redo_flip_tail() { # a byte of the last mini-transaction (the log has not wrapped: file offset = LSN)
    flip_bit "$(redo)" $((REDO_LSN - 20)) 0
    FAULT_NOTE="ib_logfile0 $FLIP_NOTE, 20 bytes before the LSN after the lock's commit ($REDO_LSN)"
}
f_redo_flip_after_end() { # past the end of the log, in the last block's unused part
    local e
    e=$(redo_end)
    flip_bit "$(redo)" $((e - 30)) 0
    FAULT_NOTE="ib_logfile0 $FLIP_NOTE, 30 bytes before the end of the last block written ($e; the LSN after the lock was $REDO_LSN)"
}
f_redo_flip_mid() { # between the start-up checkpoint and the end
    local e o
    e=$(redo_end)
    o=$(((e + 44000) / 2))
    flip_bit "$(redo)" "$o" 0
    FAULT_NOTE="ib_logfile0 $FLIP_NOTE, mid-way through the redo written since start ($e)"
}
f_redo_flip_header() { flip_bit "$(redo)" 4100 0; FAULT_NOTE="ib_logfile0 $FLIP_NOTE, in the first checkpoint block"; }
f_redo_cut() { local f; f=$(redo); FAULT_NOTE="ib_logfile0 $(fsize "$f") -> $(($(fsize "$f") - 1048576)) bytes (1 MiB cut, beyond the written part)"; cut_tail "$f" 1048576; }
f_redo_rm() { rm "$(redo)"; FAULT_NOTE="ib_logfile0 deleted"; }
f_redo_old() { cp "$RUN/$CASE/data.old/ib_logfile0" "$(redo)"; FAULT_NOTE="ib_logfile0 from the copy taken after k0..k$((NKEYS / 2 - 1)), every other file current"; }
# --- tablespaces ---
lock_page() { # the page of locks.ibd that holds the lock row: its 16 KiB page number
    python3 -c '
import sys
d = open(sys.argv[1], "rb").read()
o = d.find(b"lock", 3 * 16384)
print(o // 16384 if o >= 0 else 3)' "$(ibd locks)"
}
f_ibd_torn_lock_page() { # the page holding the lock row: its second half zeros (a torn 16 KiB write)
    local p
    p=$(lock_page)
    zero_range "$(ibd locks)" $((p * 16384 + 8192)) 8192
    FAULT_NOTE="locks.ibd page $p (holds the lock row): bytes 8192..16384 of it zeroed"
}
f_ibd_flip_lock_row() { # a bit of the owner 'A' in the lock row: key 'lock', DB_TRX_ID (6), DB_ROLL_PTR (7), owner
    local o
    o=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().find(b"lock", 3 * 16384))' "$(ibd locks)")
    flip_bit "$(ibd locks)" $((o + 17)) 0
    FAULT_NOTE="locks.ibd $FLIP_NOTE: the owner 'A' of the lock row"
}
f_ibd_flip_data_page() { # a bit in a row of data.ibd (page 3, the root/leaf)
    local o
    o=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().find(b"value-of-k100:"))' "$(ibd data)")
    flip_bit "$(ibd data)" $((o + 20)) 0
    FAULT_NOTE="data.ibd $FLIP_NOTE, inside the value of k100 (page $((o / 16384)))"
}
f_ibd_cut_page() { local f; f=$(ibd locks); FAULT_NOTE="locks.ibd $(fsize "$f") -> $(($(fsize "$f") - 16384)) (its last page)"; cut_tail "$f" 16384; }
f_ibd_zero_page() { local p; p=$(lock_page); zero_range "$(ibd locks)" $((p * 16384)) 16384; FAULT_NOTE="locks.ibd page $p (the lock row's) all zeros"; }
f_ibd_old() { cp "$RUN/$CASE/data.old/lc/locks.ibd" "$(ibd locks)"; FAULT_NOTE="locks.ibd from the copy taken before the lock, every other file current"; }
f_ibd_rm() { rm "$(ibd locks)"; FAULT_NOTE="locks.ibd deleted (locks.frm kept)"; }
# --- system tablespace ---
f_ibdata_flip_trx_sys() { flip_bit "$RUN/$CASE/data/ibdata1" $((5 * 16384 + 100)) 0; FAULT_NOTE="ibdata1 $FLIP_NOTE, in page 5 (TRX_SYS)"; }
f_ibdata_flip_dict() { flip_bit "$RUN/$CASE/data/ibdata1" $((7 * 16384 + 200)) 0; FAULT_NOTE="ibdata1 $FLIP_NOTE, in page 7 (the data dictionary header)"; }
f_ibdata_zero_tail() { local f z; f="$RUN/$CASE/data/ibdata1"; z=$(fsize "$f"); zero_range "$f" $((z - 4096)) 4096; FAULT_NOTE="ibdata1 bytes $((z - 4096))..$z zeroed"; }
f_ibdata_cut() { local f; f="$RUN/$CASE/data/ibdata1"; FAULT_NOTE="ibdata1 $(fsize "$f") -> $(($(fsize "$f") - 1048576)) (1 MiB cut)"; cut_tail "$f" 1048576; }
f_ibdata_zero_dblwr_page() { # a page of the doublewrite area (pages 64..191 of ibdata1)
    zero_range "$RUN/$CASE/data/ibdata1" $((64 * 16384)) 16384
    FAULT_NOTE="ibdata1 page 64 (first page of the doublewrite buffer) zeroed"
}
# --- binlog ---
f_binlog_cut_lock() {
    local f at
    f=$(binlog)
    at=$(last_gtid_at)
    FAULT_NOTE="$(basename "$f") $(fsize "$f") -> $at bytes: the lock's transaction (its last) cut"
    truncate_to "$f" "$at"
}
f_binlog_torn() {
    local f at z
    f=$(binlog)
    at=$(last_gtid_at)
    z=$(fsize "$f")
    truncate_to "$f" $(((at + z) / 2))
    FAULT_NOTE="$(basename "$f") $z -> $(((at + z) / 2)) bytes: the lock's transaction cut in its middle"
}
f_binlog_cut_half() { local f z; f=$(binlog); z=$(fsize "$f"); truncate_to "$f" $((z / 2)); FAULT_NOTE="$(basename "$f") $z -> $((z / 2)) bytes"; }
f_binlog_flip_mid() { local f; f=$(binlog); flip_bit "$f" $(($(fsize "$f") / 2)) 0; FAULT_NOTE="$(basename "$f") $FLIP_NOTE (file middle)"; }
f_binlog_flip_tail() { local f; f=$(binlog); flip_bit "$f" $(($(fsize "$f") - 40)) 0; FAULT_NOTE="$(basename "$f") $FLIP_NOTE (in the lock's transaction)"; }
f_binlog_rm() { local f; f=$(binlog); rm "$f"; FAULT_NOTE="$(basename "$f") deleted, mysql-bin.index still names it"; }
f_binlog_index_rm() { rm "$RUN/$CASE/data/mysql-bin.index"; FAULT_NOTE="mysql-bin.index deleted"; }
f_restore_old() {
    rm -rf "$RUN/$CASE/data"
    mv "$RUN/$CASE/data.old" "$RUN/$CASE/data"
    FAULT_NOTE="the data directory copied after k0..k$((NKEYS / 2 - 1)) put back"
}

echo "| case | fault (server down) | extra args | server did | time to exit / answer | its error log (verbatim, timestamp cut) | data after restart | lock after restart |" >"$TABLE"
echo "|---|---|---|---|---|---|---|---|" >>"$TABLE"

NODBL=--innodb-doublewrite=0
run_case none "none: kill -9 only" wl_basic f_none
run_case redo-zero-tail "redo: the last 4 KiB block zeroed" wl_basic f_redo_zero_tail
run_case redo-zero-tail-8k "redo: the last two 4 KiB blocks zeroed" wl_basic f_redo_zero_tail_8k
run_case redo-torn "redo: the last block torn after its first 512-byte sector" wl_basic f_redo_torn
run_case redo-flip-tail "redo: bit flip in the last mini-transaction (the lock's commit)" wl_basic f_redo_flip_tail
run_case redo-flip-after-end "redo: bit flip in the last block, past the end of the log" wl_basic f_redo_flip_after_end
run_case redo-flip-mid "redo: bit flip mid-way through the unflushed redo" wl_basic f_redo_flip_mid
run_case redo-flip-header "redo: bit flip in the checkpoint header block" wl_basic f_redo_flip_header
run_case redo-cut "redo: file 1 MiB shorter" wl_basic f_redo_cut
run_case redo-rm "redo: ib_logfile0 deleted" wl_basic f_redo_rm
run_case redo-rm-flushed "redo: ib_logfile0 deleted after every page was flushed and checkpointed" wl_flushed f_redo_rm
run_case redo-old "redo: an older ib_logfile0 put back" wl_old_copy f_redo_old
run_case ibd-torn-dblwr "locks.ibd: the lock row's page half zeros (torn), written after the last checkpoint" wl_torn_setup f_ibd_torn_lock_page
run_case ibd-torn-nodblwr "locks.ibd: the lock row's page half zeros (torn), written after the last checkpoint" wl_torn_setup f_ibd_torn_lock_page $NODBL
run_case ibd-torn-ckpt-dblwr "locks.ibd: the lock row's page half zeros (torn), every page flushed and checkpointed" wl_flushed f_ibd_torn_lock_page
run_case ibd-torn-ckpt-nodblwr "locks.ibd: the lock row's page half zeros (torn), every page flushed and checkpointed" wl_flushed f_ibd_torn_lock_page $NODBL
run_case ibd-torn-unflushed "locks.ibd: page 3 half zeros, the lock row never flushed (redo holds it)" wl_basic f_ibd_torn_lock_page
run_case ibd-zero-page "locks.ibd: the lock row's page all zeros, pages flushed" wl_flushed f_ibd_zero_page
run_case ibd-zero-page-nodblwr "locks.ibd: the lock row's page all zeros, pages flushed" wl_flushed f_ibd_zero_page $NODBL
run_case ibd-flip-lock-row "locks.ibd: bit flip in the lock row, pages flushed" wl_flushed f_ibd_flip_lock_row
run_case ibd-flip-data "data.ibd: bit flip in a row, pages flushed" wl_flushed f_ibd_flip_data_page
run_case ibd-cut "locks.ibd: its last 16 KiB page cut off, pages flushed" wl_flushed f_ibd_cut_page
run_case ibd-old "locks.ibd: an older copy (before the lock) put back, pages flushed" wl_old_copy_flushed f_ibd_old
run_case ibd-rm "locks.ibd deleted" wl_flushed f_ibd_rm
run_case ibdata-flip-trx-sys "ibdata1: bit flip in page 5 (TRX_SYS), pages flushed" wl_flushed f_ibdata_flip_trx_sys
run_case ibdata-flip-dict "ibdata1: bit flip in page 7 (dictionary header), pages flushed" wl_flushed f_ibdata_flip_dict
run_case ibdata-zero-tail "ibdata1: its last 4 KiB zeroed" wl_basic f_ibdata_zero_tail
run_case ibdata-cut "ibdata1: 1 MiB cut off its end" wl_basic f_ibdata_cut
run_case ibdata-zero-dblwr "ibdata1: a doublewrite-buffer page zeroed" wl_flushed f_ibdata_zero_dblwr_page
run_case binlog-cut-lock "binlog: the lock's transaction cut off" wl_basic f_binlog_cut_lock
run_case binlog-torn "binlog: the lock's transaction cut in its middle" wl_basic f_binlog_torn
run_case binlog-cut-half "binlog: truncated to half" wl_basic f_binlog_cut_half
run_case binlog-flip-mid "binlog: bit flip mid-file" wl_basic f_binlog_flip_mid
run_case binlog-flip-tail "binlog: bit flip in the last transaction" wl_basic f_binlog_flip_tail
run_case binlog-rm "binlog file deleted" wl_basic f_binlog_rm
run_case binlog-index-rm "binlog index deleted" wl_basic f_binlog_index_rm
run_case old-datadir "older copy of the whole data directory put back" wl_old_copy f_restore_old

# --- disk errors while running -----------------------------------------------------

RUNNING=$RES/running.md
# running_case NAME TEXT MODE [ARGS]: eio-fsync (strace: every fsync/fdatasync fails
# with EIO) or enospc (the data directory on a 128 MiB tmpfs, filled up after
# start, then INSERTs of 60 kB rows, each client call bounded by 10 s)
running_case() {
    CASE=$1
    local text=$2 mode=$3
    shift 3
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    local dir=$RUN/$CASE
    mkdir -p "$dir/tmp"
    disk_error_dir "$dir" "$mode" 128
    cp -a "$TEMPLATE/data/." "$dir/data/"
    start "$CASE" 1 "$@"
    local server=$PID
    sql -e "CREATE DATABASE lc; CREATE TABLE lc.data (k INT PRIMARY KEY, v LONGTEXT) ENGINE=InnoDB;
            CREATE TABLE lc.locks (name VARCHAR(64) PRIMARY KEY, owner VARCHAR(64), expires DATETIME(3)) ENGINE=InnoDB;" >/dev/null
    write_rows 0 50 >/dev/null
    disk_error_inject "$server" "$mode" "$dir" 128
    local i r ok=0 err=0 first="" t0 lockr
    t0=$(now_ms)
    for ((i = 100; i < 140; i++)); do
        r=$(timeout 10 mariadb -S "$dir/mysqld.sock" -u root -N -B -e "INSERT INTO lc.data VALUES ($i, REPEAT('y', 60000))" 2>&1 | tr '\n' ' ')
        local st=$?
        if [[ -z $r ]]; then ok=$((ok + 1)); else
            err=$((err + 1))
            [[ -z $first ]] && first="${r} (insert $((i - 100)), after $(($(now_ms) - t0)) ms)"
        fi
        [[ -z $r ]] || [[ $r == *ERROR* ]] || true
        kill -0 "$server" 2>/dev/null || break
        ((err >= 3)) && break
        [[ $mode == eio-fsync ]] && ((i >= 119)) && break
    done
    [[ -z $first && $err -gt 0 ]] && first="timeout"
    lockr=$(timeout 10 mariadb -S "$dir/mysqld.sock" -u root -N -B -e "INSERT INTO lc.locks VALUES ('lock','A', NOW(3) + INTERVAL 30 SECOND)" 2>&1 | tr '\n' ' ')
    [[ -z $lockr ]] && lockr=OK
    disk_error_heal "$server" "$mode" "$dir"
    local after
    if [[ $ALIVE == yes ]]; then
        sleep 2
        after="2 s after the heal: INSERT $(timeout 70 mariadb -S "$dir/mysqld.sock" -u root -N -B -e "INSERT INTO lc.data VALUES (999, 'healed')" 2>&1 | tr '\n' ' ')"
        [[ $after == *"INSERT " ]] && after+="OK"
        after+="; rows $(timeout 10 mariadb -S "$dir/mysqld.sock" -u root -N -B -e "SELECT COUNT(*) FROM lc.data" 2>&1)"
        kill9 "$server"
    else
        start "$CASE" 2 "$@"
        after="restarted after the heal: $READY ($READY_MS ms)"
        [[ $READY == up ]] && after+=", rows: $(sql -e "SELECT COUNT(*) FROM lc.data"), lock row: $(sql -e "SELECT owner FROM lc.locks")" && kill9 "$PID"
        after+="; $(key_lines "$LOGS/$CASE.2.log" 3 | tr '\n' ' ')"
    fi
    row "$RUNNING" "$CASE" "$text ($NOTE)" "$ok acked, $err failed; first failure: ${first:-none}; then the lock INSERT: $lockr" \
        "$(disk_error_process)" "$(key_lines "$LOGS/$CASE.1.log" 6)" "$after"
    disk_error_done "$dir" "$mode"
    return 0
}
echo "| case | disk fault (server running) | INSERTs | process | its error log | after the heal |" >"$RUNNING"
echo "|---|---|---|---|---|---|" >>"$RUNNING"
running_case run-eio-fsync "fsync/fdatasync fail with EIO" eio-fsync
running_case run-enospc "disk full (ENOSPC)" enospc

cleanup_all
[[ ${KEEP:-0} == 1 ]] || rm -rf "$RUN"
echo "results: $TABLE"
