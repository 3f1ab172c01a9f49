#!/usr/bin/env python3
"""ingest_window_categories.py PROFILE [N]: the shares of a collapsed async-profiler profile taken
with `threads` (ingest_window.sh): by thread group, the ingest request threads' (quarry-ingest-*)
samples by the first category whose pattern matches anywhere in the stack (in the order listed),
and their N top self frames. Session 46 (ing46)."""
import sys, re, collections
f = sys.argv[1]
groups = [
  ('C2 compiler', r'C2 CompilerThre'), ('C1 compiler', r'C1 CompilerThre'),
  ('GC', r'^\[(G1|GC Thread|VM Thread)'), ('Lucene merges', r'Lucene Merge'),
  ('committers/timer', r'quarry-committer|quarry-commit'), ('Netty event loops', r'(epoll|nioEventLoop|EventLoop)'),
]
cats = [
  ('kernel page clearing (first touch of memory)', r'clear_page_erms'),
  ('WAL fsync', r'WriteAheadLog.*sync|fdatasync|fsync|force0'),
  ('WAL encode (WalCodec/EncodedBatch)', r'codecs/wal/(WalCodec|EncodedBatch|WalStrings|WalOutput)'),
  ('WAL append (CRC, writev)', r'codecs/wal/'),
  ('flush (DWPT.flush)', r'DocumentsWriterPerThread\.flush|DocumentsWriter\.doFlush|IndexWriter\.(flush|getReader|prepareCommit)|DocumentsWriter\.flushAllThreads'),
  ('journal lz4/zstd at add', r'Journal|Lz4|lz4|zstd|Zstd'),
  ('TermSet', r'codecs/tokens/'),
  ('term filter entries', r'BlockDocuments\.entriesOf|TermFilterEntries|TermFilter\.'),
  ('EventBlockWriter (payload)', r'codecs/block/EventBlockWriter|BlockColumnValues'),
  ('BlockValueTally/codes', r'BlockValueTally|ValueOrder|BlockValueCodes|BlockValueCounts'),
  ('Lucene inversion (_kw, etc)', r'IndexingChain.*invert|TermsHashPerField|FreqProxTermsWriter'),
  ('Lucene doc values/points at add', r'DocValuesWriter|PointValuesWriter|IndexingChain'),
  ('Lucene addDocument other', r'org/apache/lucene'),
  ('BlockKeywords', r'BlockKeywords'),
  ('BlockDocuments other', r'BlockDocuments|NewestFirst'),
  ('access-log parse', r'AccessLogParser|SmallFieldMap'),
  ('timestamp', r'Timestamp|AsciiText'),
  ('line split / breaker', r'EventBreaker|LineScan'),
  ('event check', r'EventCheck|IndexStore\.problem'),
  ('body copy / HTTP', r'netty|Exchange|Hec|hec/'),
]
thr = collections.Counter(); cat = collections.Counter(); total = 0; req = 0
reqframes = collections.Counter()
for line in open(f):
    line = line.rstrip('\n')
    if not line: continue
    stack, n = line.rsplit(' ', 1); n = int(n); total += n
    frames = stack.split(';')
    tname = frames[0]
    g = None
    for name, pat in groups:
        if re.search(pat, tname): g = name; break
    if g is None:
        if 'quarry-ingest' in tname:
            g = 'request threads (ingest)'
        else:
            g = 'other: ' + re.sub(r'[ -]?(tid=)?\d+\]?$', '', tname)[:40]
    thr[g] += n
    if g == 'request threads (ingest)':
        req += n
        c = 'other'
        joined = ';'.join(frames)
        for name, pat in cats:
            if re.search(pat, joined): c = name; break
        cat[c] += n
        reqframes[frames[-1]] += n
print(f'total samples {total}')
for g, n in thr.most_common(25): print(f'{n:8d} {100*n/total:5.1f}%  {g}')
print(f'\nrequest threads: {req}')
for c, n in cat.most_common(): print(f'{n:8d} {100*n/total:5.1f}% of all {100*n/max(req,1):5.1f}% of requests  {c}')
print('\ntop self frames in requests:')
for fr, n in reqframes.most_common(int(sys.argv[2]) if len(sys.argv)>2 else 25): print(f'{n:8d} {100*n/max(req,1):5.1f}%  {fr}')
