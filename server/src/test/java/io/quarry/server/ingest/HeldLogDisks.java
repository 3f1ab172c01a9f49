package io.quarry.server.ingest;

import io.quarry.codecs.store.BucketDirectories;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.lucene.store.FSDirectory;

/**
 * The disks of a real server's event indexes ({@code TestServers.startWithDirectories}), on the
 * real file system, whose write-ahead log fsyncs a test holds (a slow disk: the fsync waits until
 * released, then forces the file) or fails, index by index ({@link BucketDirectories#forceLog}).
 */
final class HeldLogDisks implements Function<String, BucketDirectories> {
  private final Set<String> held = ConcurrentHashMap.newKeySet();
  private final Set<String> failing = ConcurrentHashMap.newKeySet();
  private final AtomicInteger waiting = new AtomicInteger();
  private volatile CountDownLatch release = new CountDownLatch(0);

  @Override
  public BucketDirectories apply(String index) {
    return new BucketDirectories() {
      @Override
      public org.apache.lucene.store.Directory open(java.nio.file.Path bucket) throws IOException {
        return FSDirectory.open(bucket);
      }

      @Override
      public void forceLog(FileChannel log) throws IOException {
        if (failing.contains(index)) {
          throw new IOException("injected: the fsync of index " + index + "'s log failed");
        }
        if (held.contains(index)) {
          CountDownLatch until = release;
          waiting.incrementAndGet();
          try {
            if (!until.await(60, TimeUnit.SECONDS)) {
              throw new IOException("a held fsync was never released");
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted in a held fsync", e);
          } finally {
            waiting.decrementAndGet();
          }
        }
        log.force(false);
      }
    };
  }

  /** From now on the fsyncs of {@code indexes}' logs wait until {@link #release}. */
  void hold(String... indexes) {
    release = new CountDownLatch(1);
    held.addAll(Set.of(indexes));
  }

  /** Lets every held fsync go on, and no later one wait. */
  void release() {
    held.clear();
    release.countDown();
  }

  /** From now on the fsyncs of {@code index}'s log fail (its log fails stop at the first). */
  void fail(String index) {
    failing.add(index);
  }

  /** Waits (up to 10 s) until an fsync is held; whether one is. */
  boolean awaitHeldFsync() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (waiting.get() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    return waiting.get() > 0;
  }
}
