#!/bin/bash
# ingest_window.sh JAR WORKDIR PROFILE [server JVM options...]: a fresh server (as EndToEnd starts it),
# `quarry ingest` of $WARM into index hec (the warm-up), settle, then `quarry ingest` of $DATA into
# main measured over its window only: wall, MB/s, the server's CPU, its minor page faults and RSS,
# each thread's CPU (threads-before/after.txt) and, with PROFILE=1, async-profiler attached for the
# window alone (AttachProfiler.java; PEV: the start command, default cpu 1 ms by thread) into
# WORKDIR/profile.txt (collapsed; ingest_window_categories.py sorts it). Session 46 (ing46).
# JOURNAL: the indexes' journalCompression (bench_server.sh). SETTLE=1 (session 47): after the
# window, the data dir's bytes, then wait until main's compaction settled (neither running nor due
# in /api/v1/indexes, at most 900 s): the server's CPU and wall from the window's end to then, the
# bytes settled, and the data dir's peak bytes (du every 2 s from the window's start).
JAR=$1; W=$2; PROF=${3:-0}; shift 3; EXTRA="$*"
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
DATA=${DATA:?the lines to measure, e.g. head -n 2000000 of the reference log}; WARM=${WARM:?the warm-up lines, e.g. head -n 200000 of it}
rm -rf $W; mkdir -p $W/data
. "$(dirname "$0")/bench_server.sh"
PORT=$(free_port)
bench_config $W/data $PORT > $W/quarry.yml
$J -Xmx4g -XX:+UseG1GC --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-modules jdk.incubator.vector $EXTRA -cp $JAR io.quarry.server.cli.QuarryCli server --config=$W/quarry.yml > $W/server.log 2>&1 &
PID=$!
for i in $(seq 1 600); do curl -sf http://127.0.0.1:$PORT/health >/dev/null && break; sleep 0.1; done
curl -sf http://127.0.0.1:$PORT/health >/dev/null || { echo "no server: $W/server.log"; tail -3 $W/server.log; kill $PID 2>/dev/null; exit 1; }
TOKEN=$(cat $W/data/.hec-token)
client() { $J -Xmx1g -Xms256m -XX:TieredStopAtLevel=1 -Xshare:auto --enable-native-access=ALL-UNNAMED -cp $JAR io.quarry.server.cli.QuarryCli ingest --url=http://127.0.0.1:$PORT/ --token=$TOKEN --sourcetype=access_combined "--index=$1" --host=bench --no-resume $2 > $W/ingest-$1.log 2>&1; }
cpu() { awk '{print $14+$15}' /proc/$PID/stat; }
flt() { awk '{print $10}' /proc/$PID/stat; }
rss() { awk '/VmRSS/{print $2}' /proc/$PID/status; }
threads() { for t in /proc/$PID/task/*; do s=($(sed 's/.*) //' $t/stat)); echo "$(basename $t) $((${s[11]}+${s[12]})) $(cat $t/comm | tr ' ' '_')"; done; }
client hec $WARM
# settle: until the server uses < 3 ticks a second twice in a row (at most 60 s)
q=0; for i in $(seq 1 60); do a=$(cpu); sleep 1; b=$(cpu); [ $((b-a)) -lt 3 ] && q=$((q+1)) || q=0; [ $q -ge 2 ] && break; done
uptime
threads > $W/threads-before.txt
LIB=$W/libasyncProfiler.so; unzip -o -j -q $JAR linux-x64/libasyncProfiler.so -d $W; HERE=$(cd $(dirname $0) && pwd)
[ $PROF = 1 ] && $J $HERE/AttachProfiler.java $PID $LIB ${PEV:-start,event=cpu,interval=1ms,threads}
if [ "${SETTLE:-0}" = 1 ]; then
  (while kill -0 $PID 2>/dev/null; do du -sb $W/data 2>/dev/null | cut -f1 >> $W/du.txt; sleep 2; done) &
  DU=$!
fi
f0=$(flt); r0=$(rss); c0=$(cpu); t0=$(date +%s.%N)
client main $DATA
t1=$(date +%s.%N); c1=$(cpu); f1=$(flt); r1=$(rss); echo "minor faults $((f1-f0)), RSS ${r0} -> ${r1} kB"
threads > $W/threads-after.txt
[ $PROF = 1 ] && $J $HERE/AttachProfiler.java $PID $LIB stop,file=$W/profile.txt,collapsed
uptime
if [ "${SETTLE:-0}" = 1 ]; then
  compaction() { curl -s -u admin:bench-password http://127.0.0.1:$PORT/api/v1/indexes | python3 -c '
import json, sys
def find(o):
    if isinstance(o, dict):
        if o.get("name") == "main" and "compaction" in o: return o["compaction"]
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            c = find(v)
            if c is not None: return c
print(json.dumps(find(json.load(sys.stdin))))'; }
  echo "window end: data $(du -sb $W/data | cut -f1) bytes, main compaction $(compaction)"
  for i in $(seq 1 900); do
    c=$(compaction); [[ $c == *'"running": false'* && $c == *'"due": false'* ]] && break
    kill -0 $PID 2>/dev/null || { echo "the server ended before its compaction settled"; break; }; sleep 1
  done
  t2=$(date +%s.%N); c2=$(cpu)
  kill $DU 2>/dev/null
  echo "settled: data $(du -sb $W/data | cut -f1) bytes, peak $(sort -n $W/du.txt | tail -1) bytes, main compaction $(compaction)"
  python3 -c "print(f'SETTLE {$t2-$t1:.1f} s wall, server CPU {($c2-$c1)/100:.2f} s after the window, {($c2-$c0)/100:.2f} s in all')"
  uptime
fi
BYTES=$(stat -c %s $DATA)
python3 - <<PY
s=$t1-$t0; cpu=($c1-$c0)/100
print(f"RESULT {s:.2f} s wall, {$BYTES/1e6/s:.1f} MB/s, server CPU {cpu:.2f} s")
PY
grep -i 'events\|error' $W/ingest-main.log | tail -2
kill $PID; wait $PID 2>/dev/null
# each thread's CPU over the window, by name (threads that ended in it, e.g. merges, are missing)
python3 - $W <<'PY'
import collections, re, sys
def load(f):
    return {l.split()[0]: (int(l.split()[1]), l.split()[2]) for l in open(f)}
b = load(sys.argv[1] + '/threads-before.txt'); a = load(sys.argv[1] + '/threads-after.txt')
g = collections.Counter()
for tid, (t, n) in a.items():
    g[re.sub(r'\d+$', '#', n)] += t - b.get(tid, (0, n))[0]
for n, v in g.most_common():
    if v: print(f'{v / 100:7.2f} s {n}')
PY
