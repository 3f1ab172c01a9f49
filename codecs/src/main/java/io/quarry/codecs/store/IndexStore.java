package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.tokens.Segmenter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.store.FSDirectory;

/**
 * One Quarry index on disk: a Lucene index sorted by {@code _time}, newest first.
 *
 * <p>Durability is by group commit: writers add their documents, then wait in {@link #awaitDurable}
 * until a Lucene commit covering their sequence number has been fsync'd. One waiter at a time runs
 * the commit; the others that arrive meanwhile are covered by the next one, so the fsync cost is
 * shared by every request in flight. After each commit the near-real-time searcher is refreshed, so
 * an acknowledged event is searchable at once.
 */
public final class IndexStore implements Closeable {
  private static final Sort TIME_DESCENDING =
      new Sort(new SortField(EventFields.TIME, SortField.Type.LONG, true));

  private final String name;
  private final FSDirectory directory;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private long durableSeqNo = -1; // guarded by this
  private boolean committing; // guarded by this

  IndexStore(String name, Path path) throws IOException {
    this.name = requireNonNull(name, "name is null");
    this.directory = FSDirectory.open(path);
    IndexWriterConfig config = new IndexWriterConfig();
    config.setIndexSort(TIME_DESCENDING);
    config.setRAMBufferSizeMB(64);
    config.setCommitOnClose(true);
    this.writer = new IndexWriter(directory, config);
    this.searchers = new SearcherManager(writer, null);
  }

  public String name() {
    return name;
  }

  /**
   * Adds events (not yet durable).
   *
   * @return the sequence number to pass to {@link #awaitDurable}
   */
  public long add(List<Event> events) throws IOException {
    long seqNo = -1;
    for (Event event : events) {
      // one addDocument each: addDocuments would make a block, which an index sort forbids
      seqNo = writer.addDocument(toDocument(event));
    }
    return seqNo;
  }

  /** Blocks until every operation up to {@code seqNo} is committed to disk. */
  public void awaitDurable(long seqNo) throws IOException, InterruptedException {
    while (true) {
      synchronized (this) {
        while (durableSeqNo < seqNo && committing) {
          wait();
        }
        if (durableSeqNo >= seqNo) {
          return;
        }
        committing = true;
      }
      long committed = -1;
      try {
        committed = writer.commit();
      } finally {
        synchronized (this) {
          committing = false;
          durableSeqNo = Math.max(durableSeqNo, committed);
          notifyAll();
        }
      }
      searchers.maybeRefreshBlocking();
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

  private static Document toDocument(Event event) {
    Document document = new Document();
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
    for (String term : Segmenter.terms(event.raw())) {
      document.add(new StringField(EventFields.TOKENS, term, Field.Store.NO));
    }
    return document;
  }

  private static void keyword(Document document, String storedName, String field, String value) {
    document.add(new StoredField(storedName, value));
    String keyword = EventFields.keywordValue(value);
    if (keyword.length() <= IndexWriter.MAX_TERM_LENGTH / 4) {
      document.add(new StringField(EventFields.keywordField(field), keyword, Field.Store.NO));
    }
  }

  @Override
  public void close() throws IOException {
    try (directory;
        writer;
        searchers) {
      // closes the searcher manager, then commits and closes the writer, then the directory
    }
  }
}
