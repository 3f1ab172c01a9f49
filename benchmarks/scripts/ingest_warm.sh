#!/bin/bash
# ingest_warm.sh NAME JAR TF [profile|noprofile]: a fresh server (JDK 25, as EndToEnd starts it;
# TF: -Dquarry.storage.termFilters; JOPTS: more server options), `quarry ingest` of $DATASET
# (warm-up), 20 s, then `quarry ingest` of it again watched by ingest_threads.py (and profiled).
# WORK: where $WORK/NAME is made (default /tmp/ingest-runs). Session 32 (ingest lane).
WORK=${WORK:-/tmp/ingest-runs}; DATASET=${DATASET:?the reference log, e.g. access-1000000-seed42.log}
N=$1; JAR=$2; TF=${3:-false}; P=${4:-profile}
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
d=$WORK/$N; rm -rf $d; mkdir -p $d/data; ln -s $DATASET $d/access.log
. "$(dirname "$0")/bench_server.sh"
PORT=$(free_port)
bench_config $d/data $PORT > $d/quarry.yml
$J -Xmx4g -XX:+UseG1GC --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED -Dquarry.storage.termFilters=$TF $JOPTS --add-modules jdk.incubator.vector -cp $JAR io.quarry.server.cli.QuarryCli server --config=$d/quarry.yml > $d/server.log 2>&1 &
SERVER=$!
until curl -sf http://127.0.0.1:$PORT/health >/dev/null; do sleep 0.2; done
TOKEN=$(cat $d/data/.hec-token)
ingest() {
  $J -Xmx1g -XX:+UseG1GC --enable-native-access=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED -Xms256m -XX:TieredStopAtLevel=1 -Xshare:auto -cp $JAR io.quarry.server.cli.QuarryCli ingest --url=http://127.0.0.1:$PORT/ --token=$TOKEN --sourcetype=access_combined --index=main --host=bench --no-resume $d/access.log > $d/ingest-$1.log 2>&1
}
uptime > $d/uptime-start.txt
S=$(date +%s.%N); ingest 1; E=$(date +%s.%N)
echo "warm-up ingest: $(python3 -c "print('%.1f s = %.1f MB/s' % ($E-$S, __import__('os').path.getsize('$DATASET')/1e6/($E-$S)))")" > $d/result.txt
sleep 20
if [ "$P" = profile ]; then MP=""; else MP=--no-profile; fi
python3 $(dirname $0)/ingest_threads.py $d $d/m $MP &
MON=$!
uptime >> $d/uptime-start.txt
S=$(date +%s.%N); ingest 2; E=$(date +%s.%N)
echo "measured ingest: $(python3 -c "print('%.1f s = %.1f MB/s' % ($E-$S, __import__('os').path.getsize('$DATASET')/1e6/($E-$S)))")" >> $d/result.txt
uptime >> $d/result.txt
wait $MON
kill $SERVER; wait $SERVER
cat $d/result.txt
