#!/bin/bash
# zk.sh: what Debian 12's ZooKeeper 3.8.0 does when its data files are damaged
# while it is down (lockcheck issue 40, "disks that lie"). Part 1: one
# standalone server (the same zoo.cfg lockcheck writes, clusters/zookeeper_node.cpp,
# without server.N lines). Part 2: an ensemble of three on 127.0.0.1 (one zoo.cfg
# each, lockcheck's settings), for faults that only a quorum can repair.
# Results: zk/results/table.md, zk/results/ensemble.md, logs in zk/results/logs/.
# Idempotent; servers are children of this script, on 127.0.0.1 ports
# 12181-12183 (clients), 12888-12890 (quorum), 13888-13890 (election), and are
# SIGKILLed by PID on exit; zk/run/ is removed at the end unless KEEP=1.
# Needs zkc (built from tools/zkc.c into $DISK_ROOT if missing; libzookeeper-mt-dev).
#
#   bash zk.sh [FILTER]     # only cases whose name contains FILTER

source "$(dirname "$(readlink -f "$0")")/lib.sh"

Z=$DISK_ROOT/zk
RUN=$Z/run
RES=$Z/results${1:+-$1}
LOGS=$RES/logs
TOOLS=$(dirname "$(readlink -f "$0")")/tools
NKEYS=200
FILTER=${1:-}
TABLE=$RES/table.md
ENSEMBLE=$RES/ensemble.md

ZKC=$DISK_ROOT/zkc  # built from tools/zkc.c, outside the source tree
mkdir -p "$DISK_ROOT"
[[ -x $ZKC ]] || gcc -O1 -Wall -DTHREADED -o "$ZKC" "$TOOLS/zkc.c" -lzookeeper_mt || exit 1
rm -rf "$RUN" "$RES"
mkdir -p "$RUN" "$LOGS"

zkc() { "$ZKC" "$@" 2>&1; }
# ruok PORT: "imok" within 1 s
ruok() {
    local r
    r=$(timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1 && printf ruok >&3 && cat <&3" 2>/dev/null)
    [[ $r == imok ]]
}
srvr_mode() { timeout 1 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1 && printf srvr >&3 && cat <&3" 2>/dev/null | sed -n 's/^Mode: //p'; }

# write_node DIR MYID CLIENT_PORT [ENSEMBLE]: lockcheck's zoo.cfg and log4j.properties
write_node() {
    local dir=$1 myid=$2 port=$3 ensemble=${4:-}
    mkdir -p "$dir/data" "$dir/conf"
    [[ -n $ensemble ]] && echo "$myid" >"$dir/data/myid"
    cat >"$dir/conf/log4j.properties" <<'EOF'
log4j.rootLogger=INFO, CONSOLE
log4j.appender.CONSOLE=org.apache.log4j.ConsoleAppender
log4j.appender.CONSOLE.Target=System.out
log4j.appender.CONSOLE.layout=org.apache.log4j.PatternLayout
log4j.appender.CONSOLE.layout.ConversionPattern=%d{ISO8601} [myid:%X{myid}] - %-5p [%t:%C{1}@%L] - %m%n
EOF
    {
        echo "tickTime=500"
        echo "initLimit=20"
        echo "syncLimit=5"
        echo "dataDir=$dir/data"
        echo "clientPort=$port"
        echo "clientPortAddress=127.0.0.1"
        echo "minSessionTimeout=1000"
        echo "maxSessionTimeout=60000"
        echo "4lw.commands.whitelist=ruok, srvr"
        echo "admin.enableServer=false"
        echo "preAllocSize=4096"
        echo "autopurge.purgeInterval=0"
        echo "forceSync=yes"
        if [[ -n $ensemble ]]; then
            local i
            for i in 1 2 3; do echo "server.$i=127.0.0.1:$((12887 + i)):$((13887 + i))"; done
        fi
    } >"$dir/zoo.cfg"
}

# start_zk DIR LOG: lockcheck's java command line; sets PID
start_zk() {
    local dir=$1 log=$2
    spawn "$log" java -Xms64m -Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData \
        -Djava.net.preferIPv4Stack=true "-Dzookeeper.log.dir=$dir" \
        "-Dlog4j.configuration=file://$dir/conf/log4j.properties" -cp \
        /usr/share/java/zookeeper.jar:/usr/share/java/slf4j-log4j12.jar:/usr/share/java/log4j-1.2.jar \
        org.apache.zookeeper.server.quorum.QuorumPeerMain "$dir/zoo.cfg"
}

P1=12181
probe1() { [[ -n $(srvr_mode $P1) ]]; } # srvr answers a mode only once the data is loaded (ruok says imok before)

key_lines() {
    grep -E 'WARN|ERROR|FATAL|Exception|Snapshot loaded|Reading snapshot|Snapshotting|[Cc][Rr][Cc]|EOF|[Tt]runcat|Unable to load|[Ee]xiting|digest mismatch|Something is broken|Invalid snapshot|TRUNC|DIFF|SNAP' "$1" |
        grep -vE 'Either no config or no quorum|maxCnxns is not configured|Close of session|Unexpected exception|Exception causing close|EndOfStreamException|zookeeper.snapshot.trust.empty|snapshot.compression|snapshotSizeFactor|Cannot open channel|ConnectException|java.net|at java\.|at org\.|sun\.nio|Interrupted while waiting for message on queue|Notification time out|Exception when following the leader|SocketException|Connection broken|Unable to read additional data|Unable to reconnect|Closing connection to peer|Send worker leaving|RecvWorker|SendWorker|digest is |ZooKeeperServer not running|Error closing a command socket|because "this.zkDb" is null|Reading configuration from|Created server with|^java.io.EOFException$|^java.lang.InterruptedException$' |
        sed -E 's/^[0-9-]+ [0-9:,]+ \[myid:[0-9]*\] - //; s|'"$DISK_ROOT"'/zk/run/[^/]*/||g' | awk '!seen[$0]++' | head -${2:-6}
}

# newest_in DIR PREFIX: the file DIR/PREFIX.ZXID with the highest zxid (hex)
newest_in() {
    local f n
    for f in "$1/$2".*; do
        n=${f##*.}
        [[ $n =~ ^[0-9a-f]+$ ]] && echo "$((16#$n)) $f"
    done | sort -n | tail -1 | cut -d' ' -f2
}
newest_log() { newest_in "$RUN/$CASE/data/version-2" log; }
newest_snap() { newest_in "$RUN/$CASE/data/version-2" snapshot; }
records() { python3 "$TOOLS/zklog.py" "$1"; }
rec_end() { records "$1" | awk '$1=="end"{print $2}'; }
last_rec() { records "$1" | grep -v '^end' | tail -1; } # OFFSET END LENGTH ZXID TYPE
nth_rec() { records "$1" | grep -v '^end' | sed -n "${2}p"; }
nrec() { records "$1" | grep -vc '^end'; }

# --- part 1: standalone -------------------------------------------------------

start1() { # NAME N
    port_free $P1 || { echo "port $P1 is busy: not starting" >&2; READY="port busy"; READY_MS=0; return; }
    start_zk "$RUN/$1" "$LOGS/$1.$2.log"
    wait_ready "$PID" probe1 30 || true
}

run_case() {
    CASE=$1
    local fault_text=$2 workload=$3 fault=$4
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    write_node "$RUN/$CASE" 1 $P1
    start1 "$CASE" 1
    if [[ $READY != up ]]; then
        row "$TABLE" "$CASE" "$fault_text" "first start failed: $READY" "" "" "" ""
        return 0
    fi
    NWRITTEN=0 LOCKA="" FAULT_NOTE=""
    "$workload"
    kill9 "$PID"
    "$fault"
    start1 "$CASE" 2
    local outcome=$READY lines survived="-" lock="-"
    if [[ $READY == up ]] && ! still_running "$PID" 0.5; then
        local rc=0
        wait "$PID" || rc=$?
        forget "$PID"
        READY="exit $rc (after serving)"
    fi
    outcome=$READY
    if [[ $READY == up ]]; then
        outcome=started
        local a a2 b s
        a=$(zkc 127.0.0.1:$P1 resume "$RUN/$CASE/sessA")
        b=$(zkc 127.0.0.1:$P1 lock B "$RUN/$CASE/sessB")
        a2=$(zkc 127.0.0.1:$P1 resume "$RUN/$CASE/sessA")
        s=$(zkc 127.0.0.1:$P1 survey "$NWRITTEN")
        survived=$(echo "$s" | head -1)
        lock="A resumes: $a; B: $b; A again: $a2; $(echo "$s" | tail -1)"
        kill9 "$PID"
    fi
    lines=$(key_lines "$LOGS/$CASE.2.log")
    row "$TABLE" "$CASE" "$fault_text${FAULT_NOTE:+ ($FAULT_NOTE)}" "$outcome" "$READY_MS ms" \
        "${lines:-(nothing unusual)}" "$survived; lock A: $LOCKA" "$lock"
}

wl_basic() { # NKEYS creates, then the lock: a new session and its ephemeral sequential node (the last records)
    NWRITTEN=$(zkc 127.0.0.1:$P1 write 0 $NKEYS | sed -n 's/^acked //p')
    LOCKA=$(zkc 127.0.0.1:$P1 lock A "$RUN/$CASE/sessA")
}
wl_old_copy() {
    zkc 127.0.0.1:$P1 write 0 $((NKEYS / 2)) >/dev/null
    cp -a "$RUN/$CASE/data/version-2" "$RUN/$CASE/version-2.old"
    zkc 127.0.0.1:$P1 write $((NKEYS / 2)) $NKEYS >/dev/null
    NWRITTEN=$NKEYS
    LOCKA=$(zkc 127.0.0.1:$P1 lock A "$RUN/$CASE/sessA")
}
wl_snapshot() { # keys; kill; start (which writes snapshot.<zxid> with them); the lock in a new log
    NWRITTEN=$(zkc 127.0.0.1:$P1 write 0 $NKEYS | sed -n 's/^acked //p')
    kill9 "$PID"
    start1 "$CASE" 1b
    LOCKA=$(zkc 127.0.0.1:$P1 lock A "$RUN/$CASE/sessA")
}

f_none() { :; }
f_cut_last_record() {
    local f r
    f=$(newest_log)
    r=($(last_rec "$f"))
    truncate_to "$f" "${r[0]}"
    FAULT_NOTE="$(basename "$f") cut at ${r[0]}, before its last record (zxid ${r[3]}, ${r[4]}); the file is no longer preallocated"
}
f_cut_last_record_keep_size() { # the same records lost, the file keeps its preallocated size (zeros)
    local f r z
    f=$(newest_log)
    r=($(last_rec "$f"))
    z=$(fsize "$f")
    zero_range "$f" "${r[0]}" $((r[1] - r[0]))
    FAULT_NOTE="$(basename "$f") bytes ${r[0]}..${r[1]} zeroed (its last record, zxid ${r[3]}, ${r[4]}), size $z kept"
}
f_torn_last_record() {
    local f r
    f=$(newest_log)
    r=($(last_rec "$f"))
    local cut=$((r[0] + (r[1] - r[0]) / 2))
    truncate_to "$f" "$cut"
    FAULT_NOTE="$(basename "$f") cut at $cut, the middle of its last record ${r[0]}..${r[1]}"
}
f_torn_keep_size() { # the second half of the last record never written; the preallocated zeros stay
    local f r
    f=$(newest_log)
    r=($(last_rec "$f"))
    local cut=$((r[0] + (r[1] - r[0]) / 2))
    zero_range "$f" "$cut" $((r[1] - cut))
    FAULT_NOTE="$(basename "$f") bytes $cut..${r[1]} (second half of the last record) zeroed, size kept"
}
f_cut_eor() { # only the last record's end-of-record byte 'B' lost
    local f r
    f=$(newest_log)
    r=($(last_rec "$f"))
    truncate_to "$f" $((r[1] - 1))
    FAULT_NOTE="$(basename "$f") cut at $((r[1] - 1)): the last record without its final byte"
}
f_flip_mid() {
    local f n r
    f=$(newest_log)
    n=$(nrec "$f")
    r=($(nth_rec "$f" $((n / 2))))
    flip_bit "$f" $((r[0] + 12 + 40)) 0
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE: inside record $((n / 2)) of $n (zxid ${r[3]}, ${r[4]}), in its body"
}
f_flip_tail() {
    local f r
    f=$(newest_log)
    r=($(last_rec "$f"))
    flip_bit "$f" $((r[1] - 3)) 0
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE: inside the last record (zxid ${r[3]}, ${r[4]})"
}
f_flip_tail_crc() {
    local f r
    f=$(newest_log)
    r=($(last_rec "$f"))
    flip_bit "$f" $((r[0] + 7)) 0
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE: the last record's checksum"
}
f_flip_tail_length() { # the last record's length field: 4 bytes after the crc
    local f r
    f=$(newest_log)
    r=($(last_rec "$f"))
    flip_bit "$f" $((r[0] + 11)) 4
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE: the last record's length field (+16)"
}
f_flip_mid_length() {
    local f n r
    f=$(newest_log)
    n=$(nrec "$f")
    r=($(nth_rec "$f" $((n / 2))))
    flip_bit "$f" $((r[0] + 11)) 4
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE: the length field of record $((n / 2)) of $n (+16)"
}
f_zero_tail_4k() { # the last 4 KiB of the records (not of the preallocated file)
    local f e
    f=$(newest_log)
    e=$(rec_end "$f")
    zero_range "$f" $((e - 4096)) 4096
    FAULT_NOTE="$(basename "$f") bytes $((e - 4096))..$e zeroed (the records end at $e; $(records "$f" | awk -v s=$((e - 4096)) '$1!="end" && $2>s' | wc -l) records touched)"
}
f_zero_mid_4k() {
    local f e p
    f=$(newest_log)
    e=$(rec_end "$f")
    p=$((e / 2 / 4096 * 4096))
    zero_range "$f" "$p" 4096
    FAULT_NOTE="$(basename "$f") page $p..$((p + 4096)) zeroed (records end at $e)"
}
f_zero_mid_4k_boundary() { # zeros starting exactly at a record boundary mid-file
    local f n r
    f=$(newest_log)
    n=$(nrec "$f")
    r=($(nth_rec "$f" $((n / 2))))
    zero_range "$f" "${r[0]}" 4096
    FAULT_NOTE="$(basename "$f") bytes ${r[0]}..$((r[0] + 4096)) zeroed, starting at record $((n / 2)) of $n"
}
f_restore_old_copy() {
    rm -rf "$RUN/$CASE/data/version-2"
    cp -a "$RUN/$CASE/version-2.old" "$RUN/$CASE/data/version-2"
    FAULT_NOTE="version-2/ copied after k0..k$((NKEYS / 2 - 1))"
}
f_restore_old_log() {
    local f
    f=$(newest_log)
    cp "$RUN/$CASE/version-2.old/$(basename "$f")" "$f"
    FAULT_NOTE="only $(basename "$f") put back, copied after k0..k$((NKEYS / 2 - 1))"
}
f_rm_logs() { FAULT_NOTE="deleted: $(cd "$RUN/$CASE/data/version-2" && echo log.*)"; rm "$RUN/$CASE"/data/version-2/log.*; }
f_rm_newest_log() { local f; f=$(newest_log); rm "$f"; FAULT_NOTE="deleted $(basename "$f")"; }
f_snap_cut() { local f; f=$(newest_snap); FAULT_NOTE="$(basename "$f") $(fsize "$f") -> $(($(fsize "$f") - 10))"; cut_tail "$f" 10; }
f_snap_flip_mid() { local f; f=$(newest_snap); flip_bit "$f" $(($(fsize "$f") / 2)) 0; FAULT_NOTE="$(basename "$f") $FLIP_NOTE"; }
f_snap_zero_tail() {
    local f z o
    f=$(newest_snap)
    z=$(fsize "$f")
    o=$((z > 4096 ? z - 4096 : 0))
    zero_range "$f" "$o" $((z - o))
    FAULT_NOTE="$(basename "$f") bytes $o..$z of $z zeroed"
}
f_snap_rm() { local f; f=$(newest_snap); rm "$f"; FAULT_NOTE="deleted $(basename "$f"); left: $(cd "$RUN/$CASE/data/version-2" && echo *)"; }
f_snap_all_bad() { # the newest snapshot corrupt and the older ones deleted
    local f g
    f=$(newest_snap)
    for g in "$RUN/$CASE"/data/version-2/snapshot.*; do [[ $g != "$f" ]] && rm "$g"; done
    flip_bit "$f" $(($(fsize "$f") / 2)) 0
    FAULT_NOTE="$(basename "$f") $FLIP_NOTE, every older snapshot deleted; left: $(cd "$RUN/$CASE/data/version-2" && echo *)"
}
f_snap_first_rm() { # the start-up snapshot.0 gone (logs all there)
    rm "$RUN/$CASE/data/version-2/snapshot.0"
    FAULT_NOTE="deleted snapshot.0; left: $(cd "$RUN/$CASE/data/version-2" && echo *)"
}

echo "| case | fault (server down) | server did | time to exit / imok | its log (verbatim, timestamp cut) | data after restart | lock after restart (A's session resumed, then B locks) |" >"$TABLE"
echo "|---|---|---|---|---|---|---|" >>"$TABLE"

run_case none "none: kill -9 only" wl_basic f_none
run_case log-cut-record "transaction log cut before its last record (the lock's create)" wl_basic f_cut_last_record
run_case log-zero-record "the last record zeroed, preallocated size kept" wl_basic f_cut_last_record_keep_size
run_case log-torn "torn write: the last record cut in its middle" wl_basic f_torn_last_record
run_case log-torn-keep-size "torn write: the second half of the last record zeros, size kept" wl_basic f_torn_keep_size
run_case log-cut-eor "the last record's final byte cut" wl_basic f_cut_eor
run_case log-flip-mid "bit flip mid-log, in a record's body" wl_basic f_flip_mid
run_case log-flip-mid-length "bit flip mid-log, in a record's length" wl_basic f_flip_mid_length
run_case log-flip-tail "bit flip in the last record's body" wl_basic f_flip_tail
run_case log-flip-tail-crc "bit flip in the last record's checksum" wl_basic f_flip_tail_crc
run_case log-flip-tail-length "bit flip in the last record's length" wl_basic f_flip_tail_length
run_case log-zero-tail "zero the last 4 KiB of the log's records" wl_basic f_zero_tail_4k
run_case log-zero-mid "zero a 4 KiB page mid-log" wl_basic f_zero_mid_4k
run_case log-zero-mid-boundary "zero 4 KiB mid-log starting at a record boundary" wl_basic f_zero_mid_4k_boundary
run_case old-copy "older copy of version-2/ put back" wl_old_copy f_restore_old_copy
run_case old-log "older copy of the log put back" wl_old_copy f_restore_old_log
run_case rm-logs "every log.* deleted (snapshot.0 left)" wl_basic f_rm_logs
run_case snap-cut "newest snapshot: 10 bytes cut (log after it holds the lock)" wl_snapshot f_snap_cut
run_case snap-flip-mid "newest snapshot: bit flip mid-file" wl_snapshot f_snap_flip_mid
run_case snap-zero-tail "newest snapshot: last 4 KiB zeroed" wl_snapshot f_snap_zero_tail
run_case snap-rm "newest snapshot deleted" wl_snapshot f_snap_rm
run_case snap-all-bad "newest snapshot corrupt, older ones deleted" wl_snapshot f_snap_all_bad
run_case snap-rm-first "snapshot.0 deleted (the logs since zxid 1 are all there)" wl_basic f_snap_first_rm
run_case snap-and-log-rm "newest snapshot kept, the newest log (with the lock) deleted" wl_snapshot f_rm_newest_log

# --- part 1b: disk errors while running (standalone) ------------------------------

RUNNING=$RES/running.md
# running_case NAME TEXT MODE: MODE eio-fsync (strace makes every fsync and
# fdatasync fail with EIO) or enospc (the data directory on a 64 MiB tmpfs,
# filled up, then 60 creates of 100 kB: more than the log's preallocated 4 MB)
running_case() {
    CASE=$1
    local text=$2 mode=$3
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    local dir=$RUN/$CASE
    write_node "$dir" 1 $P1
    disk_error_dir "$dir" "$mode" 64
    start1 "$CASE" 1
    local server=$PID
    zkc 127.0.0.1:$P1 write 0 50 >/dev/null
    disk_error_inject "$server" "$mode" "$dir" 64 fsync,fdatasync:error=EIO 2
    local i r ok=0 err=0 first="" t0
    t0=$(now_ms)
    for ((i = 100; i < 160; i++)); do
        if [[ $mode == enospc ]]; then r=$(timeout 10 "$ZKC" 127.0.0.1:$P1 write $i $((i + 1)) 100000 2>&1 | tr '\n' ' ')
        else r=$(timeout 10 "$ZKC" 127.0.0.1:$P1 write $i $((i + 1)) 2>&1 | tr '\n' ' '); fi
        if [[ $r == "acked 1 " ]]; then ok=$((ok + 1)); else
            err=$((err + 1))
            [[ -z $first ]] && first="${r:-timeout} (create $((i - 100)), after $(($(now_ms) - t0)) ms)"
        fi
        kill -0 "$server" 2>/dev/null || break
        [[ $mode == eio-fsync ]] && ((i >= 119)) && break
    done
    disk_error_heal "$server" "$mode" "$dir"
    local after
    if [[ $ALIVE == yes ]]; then
        sleep 2
        after="2 s after the heal: $(timeout 10 "$ZKC" 127.0.0.1:$P1 write 500 501 2>&1 | tr '\n' ' '); srvr mode: $(srvr_mode $P1)"
        kill9 "$server"
    else
        start1 "$CASE" 2
        after="restarted after the heal: $READY ($READY_MS ms)"
        [[ $READY == up ]] && after+=", $(zkc 127.0.0.1:$P1 survey 50)" && kill9 "$PID"
        after+="; $(key_lines "$LOGS/$CASE.2.log" 3 | tr '\n' ' ')"
    fi
    row "$RUNNING" "$CASE" "$text ($NOTE)" "$ok acked, $err failed; first failure: ${first:-none}" \
        "$(disk_error_process)" "$(key_lines "$LOGS/$CASE.1.log" 6)" "$after"
    disk_error_done "$dir" "$mode"
    return 0
}
echo "| case | disk fault (server running) | creates | process | its log | after the heal |" >"$RUNNING"
echo "|---|---|---|---|---|---|" >>"$RUNNING"
running_case run-eio-fsync "fsync/fdatasync fail with EIO" eio-fsync
running_case run-enospc "disk full (ENOSPC)" enospc

# --- part 2: an ensemble of three ------------------------------------------------

EDIR=""
EPID=() ESPAWN=() EREADY=()
estart() { # I LOGTAG: start member I
    start_zk "$EDIR/n$1" "$LOGS/$CASE.n$1.$2.log"
    EPID[$1]=$PID
    ESPAWN[$1]=$SPAWN_MS
}
# ewait I...: waits up to 30 s until each member answers srvr with a mode
ewait() {
    local i t0 deadline
    deadline=$(($(now_ms) + 30000))
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
            local m
            m=$(srvr_mode $((12180 + i)))
            if [[ -n $m ]]; then EREADY[$i]="n$i $m after $(($(now_ms) - ESPAWN[$i])) ms"; break; fi
            if (($(now_ms) > deadline)); then EREADY[$i]="n$i not serving after 30 s"; break; fi
            sleep 0.1
        done
    done
}
ekill() { local i; for i in "$@"; do [[ -n ${EPID[$i]:-} ]] && kill9 "${EPID[$i]}"; unset "EPID[$i]"; done; }
hosts() { local h="" i; for i in "$@"; do h+="127.0.0.1:$((12180 + i)),"; done; echo "${h%,}"; }
elog() { newest_in "$EDIR/n$1/data/version-2" log; }

# ens_case NAME TEXT DAMAGE_FN RESTART_MEMBERS
ens_case() {
    CASE=$1
    local text=$2 damage=$3 restart=$4
    [[ -n $FILTER && $CASE != *$FILTER* ]] && return 0
    echo "== $CASE"
    EDIR=$RUN/$CASE
    local i
    for i in 1 2 3; do port_free $((12180 + i)) || { echo "port $((12180 + i)) is busy: skipping $CASE" >&2; return 0; }; done
    for i in 1 2 3; do write_node "$EDIR/n$i" "$i" $((12180 + i)) yes; done
    for i in 1 2 3; do estart "$i" 1; done
    ewait 1 2 3
    local modes="${EREADY[1]}; ${EREADY[2]}; ${EREADY[3]}"
    LEADER=3
    for i in 1 2 3; do [[ ${EREADY[$i]} == *leader* ]] && LEADER=$i; done
    NWRITTEN=$(zkc "$(hosts 1 2 3)" write 0 $NKEYS | sed -n 's/^acked //p')
    LOCKA=$(zkc "$(hosts 1 2 3)" lock A "$EDIR/sessA")
    sleep 0.3
    ekill 1 2 3
    FAULT_NOTE=""
    "$damage"
    for i in $restart; do estart "$i" 2; done
    ewait $restart
    local after="" lines="" rs
    for i in $restart; do after+="${EREADY[$i]}; "; done
    local a a2 b s
    a=$(zkc "$(hosts $restart)" resume "$EDIR/sessA")
    b=$(zkc "$(hosts $restart)" lock B "$EDIR/sessB")
    a2=$(zkc "$(hosts $restart)" resume "$EDIR/sessA")
    s=$(zkc "$(hosts $restart)" survey "$NWRITTEN")
    # the members left out now join: what do they keep?
    local late=""
    for i in 1 2 3; do
        if [[ " $restart " != *" $i "* ]]; then
            estart "$i" 3
            ewait "$i"
            sleep 1
            late+="${EREADY[$i]}: $(zkc "$(hosts "$i")" survey "$NWRITTEN" | tr '\n' ' '); "
        fi
    done
    for i in 1 2 3; do lines+="n$i: $(key_lines "$LOGS/$CASE.n$i.2.log" 3)"$'\n'; done
    [[ -n $late ]] && for i in 1 2 3; do [[ -f $LOGS/$CASE.n$i.3.log ]] && lines+="n$i (joining later): $(key_lines "$LOGS/$CASE.n$i.3.log" 3)"$'\n'; done
    row "$ENSEMBLE" "$CASE" "$text${FAULT_NOTE:+ ($FAULT_NOTE)}" "first: $modes; after the damage: $after" "$lines" \
        "$(echo "$s" | head -1); lock A: $LOCKA" "A resumes: $a; B: $b; A again: $a2; $(echo "$s" | tail -1)${late:+; later: $late}"
    ekill 1 2 3
    return 0
}

cut_lock_on() { # members whose log loses its last record (the lock's create)
    local i f r
    for i in "$@"; do
        f=$(elog "$i")
        r=($(last_rec "$f"))
        truncate_to "$f" "${r[0]}"
        FAULT_NOTE+="n$i: $(basename "$f") cut before its last record (zxid ${r[3]}, ${r[4]}); "
    done
}
flip_on() {
    local i f n r
    for i in "$@"; do
        f=$(elog "$i")
        n=$(nrec "$f")
        r=($(nth_rec "$f" $((n / 2))))
        flip_bit "$f" $((r[0] + 12 + 40)) 0
        FAULT_NOTE+="n$i: $(basename "$f") $FLIP_NOTE in record $((n / 2)) of $n; "
    done
}
d_leader_cut() { cut_lock_on "$LEADER"; }
d_two_cut() { cut_lock_on "$(((LEADER % 3) + 1))" "$((((LEADER + 1) % 3) + 1))"; }
d_flip_one() { flip_on "$LEADER"; }
d_flip_two() { flip_on "$(((LEADER % 3) + 1))" "$((((LEADER + 1) % 3) + 1))"; }
d_wipe_one() { rm -rf "$EDIR/n$LEADER/data/version-2"; FAULT_NOTE="n$LEADER: version-2/ deleted (myid kept)"; }

echo "| case | fault (every member killed, then damage) | members | their logs (verbatim) | data after restart | lock after restart |" >"$ENSEMBLE"
echo "|---|---|---|---|---|---|" >>"$ENSEMBLE"
# LEADER: the member that led before the kill (ens_case reads it from srvr)
ens_case ens-one-cut "the leader's log loses the lock's create; all three restart" d_leader_cut "1 2 3"
ens_case ens-two-cut-all "two followers' logs lose the lock's create; all three restart" d_two_cut "1 2 3"
ens_case ens-two-cut-only "two followers' logs lose the lock's create; only those two restart, then the third" d_two_cut "1 2"
ens_case ens-flip-one "bit flip mid-log on the leader; all three restart" d_flip_one "1 2 3"
ens_case ens-flip-two "bit flip mid-log on two members; all three restart" d_flip_two "1 2 3"
ens_case ens-wipe-one "the leader's version-2/ deleted; all three restart" d_wipe_one "1 2 3"

cleanup_all
[[ ${KEEP:-0} == 1 ]] || rm -rf "$RUN"
echo "results: $TABLE $ENSEMBLE"
