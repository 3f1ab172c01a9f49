package io.quarry.codecs.store;

import java.io.IOException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * How a {@link Bucket} is searched: while it is not warm, through near-real-time searchers on its
 * writer, refreshed when events were added since the last refresh (shared between concurrent
 * searches and the background refresh, {@link SharedRefresh}); once warm, through a reader of its
 * last commit, opened on the first search. The hot searchers and the warm reader are guarded by the
 * bucket's monitor, under which its roll swaps one for the other.
 */
final class BucketSearchers {
  private final Bucket bucket; // its monitor guards searchers and reader
  private final Directory directory;
  private SearcherManager searchers; // not warm
  private DirectoryReader reader; // warm: opened on first search
  private final SharedRefresh refreshes = new SharedRefresh();
  // never searched counts as search idle: a bucket nobody has searched yet (a new hot bucket, the
  // _audit and _internal buckets a search writes to) is not refreshed in the background
  private volatile long lastAcquiredNanos = System.nanoTime() - IndexStore.SEARCH_IDLE_NANOS;

  BucketSearchers(Bucket bucket, Directory directory) {
    this.bucket = bucket;
    this.directory = directory;
  }

  /** Opens the searchers of a bucket opened for writing, on its writer. */
  void openHot(IndexWriter writer) throws IOException {
    searchers = new SearcherManager(writer, null);
  }

  /** Told after every add. */
  void added() {
    refreshes.added();
  }

  /** A counter bumped after every add; pass it to {@link #refresh(long)}. */
  long addedGeneration() {
    return refreshes.addedGeneration();
  }

  /**
   * Makes every add up to {@code generation} searchable (a no-op once the bucket is warm), sharing
   * the refresh with concurrent callers ({@link SharedRefresh}).
   */
  void refresh(long generation) throws IOException {
    refreshes.refresh(generation, this::reopen);
  }

  /** Reopens the hot bucket's searchers on what its writer holds now (a no-op once warm). */
  void reopen() throws IOException {
    SearcherManager current;
    synchronized (bucket) {
      current = bucket.state() == BucketState.WARM ? null : searchers;
    }
    if (current != null) {
      try {
        current.maybeRefreshBlocking();
      } catch (org.apache.lucene.store.AlreadyClosedException closed) {
        // rolled to warm meanwhile: its events are committed and seen through the warm reader;
        // but a writer Lucene closed on a tragic exception (a failed merge or flush) is no roll
        if (bucket.failed()) {
          throw bucket.writerFailed(closed);
        }
      }
    }
  }

  /**
   * A searcher over the bucket; give it back with {@link #release}. For the hot bucket it first
   * refreshes when events were added since the last refresh, so a search sees every event
   * acknowledged before it started (read your writes); the refresh is shared with concurrent
   * searches and the background refresher.
   */
  IndexSearcher acquire() throws IOException {
    lastAcquiredNanos = System.nanoTime();
    if (bucket.state() != BucketState.WARM) {
      refresh(refreshes.addedGeneration());
      if (bucket.failed()) { // no refresh was due, but its searcher may be older than the failure
        throw bucket.writerFailed(null);
      }
    }
    return acquireCurrent();
  }

  /**
   * How long ago a searcher was last asked for ({@link IndexStore#SEARCH_IDLE_NANOS} more than
   * since the bucket opened, if never: search idle from the start).
   */
  long nanosSinceAcquired() {
    return System.nanoTime() - lastAcquiredNanos;
  }

  /** Whether events were added since the last refresh. */
  boolean needsRefresh() {
    return bucket.state() != BucketState.WARM && refreshes.needed();
  }

  private IndexSearcher acquireCurrent() throws IOException {
    synchronized (bucket) {
      if (bucket.state() != BucketState.WARM) {
        return searchers.acquire();
      }
      if (reader == null) {
        reader = DirectoryReader.open(directory);
      }
      reader.incRef();
      return new IndexSearcher(reader);
    }
  }

  void release(IndexSearcher searcher) throws IOException {
    synchronized (bucket) {
      if (searchers != null && bucket.state() != BucketState.WARM) {
        searchers.release(searcher);
      } else {
        searcher.getIndexReader().decRef();
      }
    }
  }

  /** Closes the hot searchers (the roll and the close, under the bucket's monitor). */
  void closeHot() throws IOException {
    IOUtils.close(searchers);
  }

  /** After the roll closed them: the bucket is searched through its warm reader from now on. */
  void droppedHot() {
    searchers = null;
  }

  /** Closes the warm reader, if a search opened one (the close, under the bucket's monitor). */
  void closeReader() throws IOException {
    IOUtils.close(reader);
  }
}
