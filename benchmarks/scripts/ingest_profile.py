#!/usr/bin/env python3
"""an.py FILE.collapsed [more inclusive keys...]: shares by thread group, and within the
ingest threads by category (first matching rule, inclusive along the stack)."""
import sys, re, collections

f = sys.argv[1]
extra = sys.argv[2:]

def group(th):
    t = th.lower()
    for k, g in [('quarry-ingest', 'ingest threads'), ('compiler', 'JIT'), ('gc thread', 'GC'),
                 ('g1 ', 'GC'), ('vm thread', 'GC/VM'), ('committer', 'committer (commit/flush)'),
                 ('merge', 'merges'), ('multithreadioev', 'netty io'), ('worker', 'search workers'),
                 ('refresh', 'refresh'), ('quarry-', 'quarry other')]:
        if k in t:
            return g
    return 'other: ' + th

# categories inside the ingest threads: the first rule whose key is in the stack (order matters)
RULES = [
    ('flush (DWPT flush on the adding thread)', 'DocumentsWriterPerThread.flush'),
    ('flush (doFlush)', 'DocumentsWriter.doFlush'),
    ('lucene addDocument: _tok inversion', 'TermsHashPerField.add'),
    ('lucene addDocument: stored fields (journal zstd)', 'StoredFieldsConsumer'),
    ('lucene addDocument: doc values', 'DocValuesWriter'),
    ('lucene addDocument: other', 'IndexWriter.addDocument'),
    ('lucene addDocument: other', 'IndexWriter.updateDocument'),
    ('block doc: TermSet', 'TermSet.'),
    ('block doc: filter entries', 'BlockDocuments.entriesOf'),
    ('block doc: EventBlockWriter', 'EventBlockWriter'),
    ('block doc: value tally', 'BlockValueTally'),
    ('block doc: columnsOf/keywords/other', 'BlockDocuments.document'),
    ('block doc: sort/add rest', 'BlockDocuments.add'),
    ('WAL encode', 'EncodedBatch'),
    ('WAL append/write', 'WriteAheadLog.append'),
    ('WAL sync', 'WriteAheadLog.sync'),
    ('check', 'EventCheck'),
    ('check', 'IndexStore.problem'),
    ('bytesOf', 'AsciiText.bytesOf'),
    ('breaker: index fields', 'indexFields'),
    ('breaker: timestamp', 'Timestamp'),
    ('breaker: rest', 'EventBreaker'),
    ('body', 'bodyBytes'),
    ('HecRoutes other', 'HecRoutes'),
    ('GC in thread', 'G1'),
]

tot = 0
groups = collections.Counter()
cats = collections.Counter()
inc = collections.Counter()
ingest = 0
for line in open(f):
    st, n = line.rstrip().rsplit(' ', 1)
    n = int(n)
    tot += n
    frames = st.split(';')
    th = re.sub(r' tid=\d+\]$', ']', frames[0])
    g = group(th)
    groups[g] += n
    if g != 'ingest threads':
        continue
    ingest += n
    for name, key in RULES:
        if key in st:
            cats[name] += n
            break
    else:
        cats['other: ' + frames[-1][:70]] += n
    for k in extra:
        if k in st:
            inc[k] += n

print('%s: %d samples (2 ms each = %.1f s)' % (f, tot, tot * 0.002))
for k, v in groups.most_common():
    print('  %5.1f%% %6.1f s %s' % (100 * v / tot, v * 0.002, k))
print('ingest threads, by category (share of ingest threads):')
for k, v in cats.most_common(40):
    print('  %5.1f%% %6.2f s %s' % (100 * v / ingest, v * 0.002, k))
for k in extra:
    print('  incl %5.1f%% %s' % (100 * inc[k] / max(ingest, 1), k))
