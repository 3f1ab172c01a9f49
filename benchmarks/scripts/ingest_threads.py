#!/usr/bin/env python3
"""Where a server's CPU goes during one `quarry ingest` (session 32, ingest lane).

    ingest_threads.py WORKDIR OUT [--no-profile]

Watches the Quarry server started with --config=WORKDIR/quarry.yml (EndToEnd's --work-dir, or
ingest_warm.sh's): when a `quarry ingest` whose command line names WORKDIR starts, snapshots the
server's per-thread CPU and schedstat (run, run-queue wait), attaches async-profiler through
jcmd (PROFEV=itimer|wall|cpu, PROFINT=2ms, per thread) unless --no-profile, samples the server's
and the client's CPU every 0.5 s (threads that end, such as Lucene's merge threads, keep their
last figures); when the client exits, stops the profiler (or SETTLE seconds later with
PROFSETTLE=1) and snapshots again; keeps sampling SETTLE (15) seconds more. Writes OUT.timeline
(cores used by server and client, load), OUT.threads (CPU per thread during the ingest and after
it; run / run-queue / blocked seconds during it) and OUT.collapsed (ingest_profile.py reads it).
LIB and JCMD below: async-profiler's library (in the benchmarks jar: linux-x64/) and JDK 25's jcmd.
"""
import os, sys, time, subprocess, glob, collections

workdir = os.path.abspath(sys.argv[1]); out = sys.argv[2]
profile = '--no-profile' not in sys.argv
settle = int(os.environ.get('SETTLE', '15'))
profsettle = os.environ.get('PROFSETTLE') == '1'
LIB = os.environ.get('ASPROF_LIB', '/tmp/libasyncProfiler.so')
JCMD = '/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd'
HZ = os.sysconf('SC_CLK_TCK')

def cmdline(pid):
    try:
        return open('/proc/%s/cmdline' % pid, 'rb').read().replace(b'\0', b' ').decode()
    except Exception:
        return ''

def find(pred):
    for p in os.listdir('/proc'):
        if p.isdigit() and pred(cmdline(p)):
            return int(p)
    return None

def cpu(pid):
    try:
        f = open('/proc/%d/stat' % pid).read().rsplit(')', 1)[1].split()
        return (int(f[11]) + int(f[12])) / HZ
    except Exception:
        return None

sched = {}
schedat = {}
def threads(pid):
    r = collections.Counter()
    for t in glob.glob('/proc/%d/task/*' % pid):
        try:
            name = open(t + '/comm').read().strip()
            f = open(t + '/stat').read().rsplit(')', 1)[1].split()
            ss = open(t + '/schedstat').read().split()
            r[(t.rsplit('/', 1)[1], name)] = (int(f[11]) + int(f[12])) / HZ
            sched[(t.rsplit('/', 1)[1], name)] = (int(ss[0]) / 1e9, int(ss[1]) / 1e9)
        except Exception:
            pass
    return r

def loadavg():
    return open('/proc/loadavg').read().split()[0]

conf = '--config=' + workdir + '/quarry.yml'
server = None
while server is None:
    server = find(lambda c: 'QuarryCli server' in c and conf in c)
    time.sleep(0.2)
client = None
while client is None:
    client = find(lambda c: 'QuarryCli ingest' in c and workdir in c)
    time.sleep(0.05)
t0 = time.time()
before = threads(server)
sbefore = dict(sched)
s0 = cpu(server)
if profile:
    subprocess.run([JCMD, str(server), 'JVMTI.agent_load', LIB,
                    '"start,event=' + os.environ.get('PROFEV', 'itimer') + ',interval=' + os.environ.get('PROFINT', '2ms') + ',threads"'], capture_output=True)
seen = {}
sseen = {}
tl = open(out + '.timeline', 'w')
tl.write('t server_cpu_s client_cpu_s load\n')
ps, pc, pt = s0, cpu(client) or 0, t0
clientcpu = 0
ended = None
while True:
    time.sleep(0.5)
    now = time.time()
    sc = cpu(server)
    cc = cpu(client)
    if True:
        for k, v in threads(server).items():
            seen[k] = v
            sseen[k] = sched.get(k, (0, 0))
    if cc is not None:
        clientcpu = cc
    if sc is None:
        break
    dt = now - pt
    tl.write('%.1f %.2f %.2f %s\n' % (now - t0, (sc - ps) / dt, ((cc or pc) - pc) / dt if cc is not None else 0, loadavg()))
    tl.flush()
    ps, pc, pt = sc, (cc if cc is not None else pc), now
    if cc is None and ended is None:
        ended = now
        after = dict(seen)
        after.update(threads(server))
        safter = dict(sseen)
        safter.update(sched)
        if profile and not profsettle:
            subprocess.run([JCMD, str(server), 'JVMTI.agent_load', LIB,
                            '"stop,collapsed,file=' + os.path.abspath(out) + '.collapsed"'], capture_output=True)
    if ended is not None and now - ended > settle:
        if profile and profsettle:
            subprocess.run([JCMD, str(server), 'JVMTI.agent_load', LIB,
                            '"stop,collapsed,file=' + os.path.abspath(out) + '.collapsed"'], capture_output=True)
        break
final = dict(seen)
final.update(threads(server))
with open(out + '.threads', 'w') as f:
    f.write('ingest wall %.1f s, client cpu %.2f s\n' % (ended - t0, clientcpu))
    f.write('tid name during_ingest after_ingest_%ds | run_s runqueue_s blocked_s (during ingest, schedstat)\n' % settle)
    rows = []
    for k in set(before) | set(after) | set(final):
        d = after.get(k, 0) - before.get(k, 0)
        e = final.get(k, 0) - after.get(k, 0)
        if d or e:
            rows.append((d, e, k))
    for d, e, k in sorted(rows, reverse=True):
        sb = sbefore.get(k, (0, 0)); sa = safter.get(k, sb)
        run, rq = sa[0] - sb[0], sa[1] - sb[1]
        f.write('%s %s %.2f %.2f | %.2f %.2f %.2f\n' % (k[0], k[1], d, e, run, rq, (ended - t0) - run - rq))
    f.write('total %.2f %.2f\n' % (sum(r[0] for r in rows), sum(r[1] for r in rows)))
