package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.ingest.IngestStores;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.apache.lucene.store.FSDirectory;

/**
 * One index of a real server on a disk that breaks when a test says so ({@link
 * FaultyDirectories#brokenWhile}), for {@code TestServers.startWithDirectories}: every other index
 * on the real file system.
 */
final class BrokenDisks {
  private final String index;
  private final AtomicBoolean broken = new AtomicBoolean();

  /** {@code index}'s disk, working until {@link #breakAndAwaitFailure}. */
  BrokenDisks(String index) {
    this.index = index;
  }

  /** The server's directories: {@code index}'s through this disk, the others' plain. */
  Function<String, BucketDirectories> directories() {
    BucketDirectories faulty = FaultyDirectories.brokenWhile(broken);
    return name -> name.equals(index) ? faulty : FSDirectory::open;
  }

  /**
   * Breaks the disk and waits (up to {@code seconds}) for the index's next scheduled commit to fail
   * on it: its hot bucket's writer is closed (listed {@code failed}), so the next add to the index
   * fails where it reopens the bucket, before its batch is logged.
   */
  void breakAndAwaitFailure(QuarryServer server, long seconds) throws Exception {
    broken.set(true);
    IndexStore store = IngestStores.of(server.ingest()).index(index);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!failed(store) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(failed(store)).as("%s's bucket failed on the broken disk", index).isTrue();
  }

  /** Mends the disk: the next add reopens the bucket and replays the log. */
  void mend() {
    broken.set(false);
  }

  private static boolean failed(IndexStore store) throws Exception {
    return store.buckets().stream().anyMatch(bucket -> bucket.state().equals(BucketInfo.FAILED));
  }
}
