package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.journal.QuarryCodec;
import io.quarry.codecs.tokens.TermTokenStream;
import io.quarry.codecs.wal.WriteAheadLog;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PointValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.store.FSDirectory;

/**
 * One Quarry index on disk: {@code lucene/}, a Lucene index sorted by {@code _time} newest first
 * and written with {@link QuarryCodec} (the journal holds {@code _raw}), and {@code wal/}, the
 * write-ahead log.
 *
 * <p><b>Writes.</b> Under the append lock a batch gets consecutive sequence numbers, is appended to
 * the log and added to the Lucene writer; then, outside the lock, the caller waits for the log's
 * group fsync and a near-real-time refresh. When {@link #add} returns the batch survives a crash
 * and is searchable.
 *
 * <p><b>Commits.</b> Every {@code commitInterval} the log is rolled to a new file and Lucene
 * commits. Because batches reach Lucene in sequence order under the lock, a commit holds exactly
 * the events up to some sequence number; recovery reads that number (the largest {@code _seq}
 * point) and replays only later log records, so every acknowledged event is in the index exactly
 * once.
 */
public final class IndexStore implements Closeable {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());
  private static final Sort TIME_DESCENDING =
      new Sort(new SortField(EventFields.TIME, SortField.Type.LONG, true));

  /** The term index field: DOCS-only postings, no norms, not stored. */
  private static final FieldType TERMS = termsFieldType();

  private final String name;
  private final FSDirectory directory;
  private final IndexWriter writer;
  private final WriteAheadLog wal;
  private final SearcherManager searchers;
  private final ReentrantLock appendLock = new ReentrantLock();
  private final Object commitLock = new Object();
  private final ScheduledFuture<?> committer;
  private long nextSequence; // guarded by appendLock
  private boolean closed; // guarded by commitLock

  IndexStore(String name, Path path, IndexOptions options, ScheduledExecutorService scheduler)
      throws IOException {
    this.name = requireNonNull(name, "name is null");
    Files.createDirectories(path);
    this.directory = FSDirectory.open(path.resolve("lucene"));
    IndexWriterConfig config = new IndexWriterConfig();
    config.setCodec(new QuarryCodec(options.journalCompression(), options.journalBlockSize()));
    config.setIndexSort(TIME_DESCENDING);
    config.setRAMBufferSizeMB(64);
    config.setCommitOnClose(true);
    IndexWriter opened = null;
    WriteAheadLog log = null;
    try {
      opened = new IndexWriter(directory, config);
      IndexWriter target = opened;
      long committed = maxCommittedSequence(opened);
      long[] last = {committed};
      long[] replayed = {0};
      log =
          WriteAheadLog.open(
              path.resolve("wal"),
              (firstSeq, events) -> {
                for (int i = 0; i < events.size(); i++) {
                  long sequence = firstSeq + i;
                  if (sequence > committed) {
                    target.addDocument(toDocument(events.get(i), sequence));
                    replayed[0]++;
                  }
                  last[0] = Math.max(last[0], sequence);
                }
              });
      if (replayed[0] > 0) {
        LOG.info(
            "index " + name + ": replayed " + replayed[0] + " events from the write-ahead log");
        opened.commit();
      }
      log.deleteBefore(log.roll());
      this.nextSequence = last[0] + 1;
      this.writer = opened;
      this.wal = log;
      this.searchers = new SearcherManager(opened, null);
    } catch (IOException | RuntimeException e) {
      org.apache.lucene.util.IOUtils.closeWhileHandlingException(log, opened, directory);
      throw e;
    }
    long interval = options.commitInterval().toMillis();
    this.committer =
        scheduler.scheduleWithFixedDelay(
            this::scheduledCommit, interval, interval, TimeUnit.MILLISECONDS);
  }

  private static long maxCommittedSequence(IndexWriter writer) throws IOException {
    long max = -1;
    try (DirectoryReader reader = DirectoryReader.open(writer)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        PointValues points = leaf.reader().getPointValues(EventFields.SEQUENCE);
        if (points != null) {
          max = Math.max(max, LongPoint.decodeDimension(points.getMaxPackedValue(), 0));
        }
      }
    }
    return max;
  }

  public String name() {
    return name;
  }

  /** Stores events: returns once they are durable (fsync'd to the log) and searchable. */
  public void add(List<Event> events) throws IOException {
    if (events.isEmpty()) {
      return;
    }
    List<Document> documents = new ArrayList<>(events.size());
    long position;
    appendLock.lock();
    try {
      long first = nextSequence;
      for (int i = 0; i < events.size(); i++) {
        documents.add(toDocument(events.get(i), first + i));
      }
      position = wal.append(first, events);
      nextSequence = first + events.size();
      for (Document document : documents) {
        // one addDocument each: addDocuments would make a block, which an index sort forbids
        writer.addDocument(document);
      }
    } finally {
      appendLock.unlock();
    }
    wal.sync(position);
    searchers.maybeRefreshBlocking();
  }

  /** Commits to Lucene everything added so far and drops the log files that covered it. */
  public void commit() throws IOException {
    synchronized (commitLock) {
      if (closed) {
        return;
      }
      commitLocked();
    }
  }

  private void commitLocked() throws IOException {
    if (!writer.hasUncommittedChanges()) {
      return;
    }
    long generation;
    appendLock.lock();
    try {
      generation = wal.roll();
    } finally {
      appendLock.unlock();
    }
    writer.commit();
    wal.deleteBefore(generation);
  }

  private void scheduledCommit() {
    try {
      commit();
    } catch (IOException | RuntimeException e) {
      LOG.log(
          Level.WARNING,
          "index " + name + ": background commit failed; the log still holds the events",
          e);
    }
  }

  /** The number of events visible to search. */
  public int count() throws IOException {
    IndexSearcher searcher = searchers.acquire();
    try {
      return searcher.getIndexReader().numDocs();
    } finally {
      searchers.release(searcher);
    }
  }

  SearcherManager searchers() {
    return searchers;
  }

  private static Document toDocument(Event event, long sequence) {
    Document document = new Document();
    document.add(new LongPoint(EventFields.SEQUENCE, sequence));
    document.add(new LongPoint(EventFields.TIME, event.timeMicros()));
    document.add(new NumericDocValuesField(EventFields.TIME, event.timeMicros()));
    document.add(new StoredField(EventFields.TIME, event.timeMicros()));
    document.add(new StoredField(EventFields.RAW, event.raw()));
    keyword(document, EventFields.HOST, EventFields.HOST, event.host());
    keyword(document, EventFields.SOURCE, EventFields.SOURCE, event.source());
    keyword(document, EventFields.SOURCETYPE, EventFields.SOURCETYPE, event.sourcetype());
    for (Map.Entry<String, List<String>> field : event.indexedFields().entrySet()) {
      for (String value : field.getValue()) {
        keyword(document, EventFields.INDEXED_FIELD_PREFIX + field.getKey(), field.getKey(), value);
      }
    }
    document.add(new Field(EventFields.TOKENS, new TermTokenStream(event.raw()), TERMS));
    return document;
  }

  private static FieldType termsFieldType() {
    FieldType type = new FieldType();
    type.setIndexOptions(org.apache.lucene.index.IndexOptions.DOCS);
    type.setTokenized(true);
    type.setOmitNorms(true);
    type.setStored(false);
    type.freeze();
    return type;
  }

  private static void keyword(Document document, String storedName, String field, String value) {
    document.add(new StoredField(storedName, value));
    String keyword = EventFields.keywordValue(value);
    if (keyword.length() <= IndexWriter.MAX_TERM_LENGTH / 4) {
      document.add(new StringField(EventFields.keywordField(field), keyword, Field.Store.NO));
    }
  }

  /** Commits, then closes the writer, the log and the directory. */
  @Override
  public void close() throws IOException {
    committer.cancel(false);
    synchronized (commitLock) {
      if (closed) {
        return;
      }
      try {
        commitLocked();
      } finally {
        closed = true;
        org.apache.lucene.util.IOUtils.close(searchers, writer, wal, directory);
      }
    }
  }
}
