package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.apache.lucene.util.IOUtils;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The common setup of the tests of a node's index stores whose periodic work the test runs ({@link
 * ManualScheduler}): a fresh data directory and scheduler per test, stores opened under it by name,
 * the scheduler stopped and the directory deleted after the test. Registered with
 * {@code @RegisterExtension final StoreFixture stores = new StoreFixture();}; the {@code n}-th
 * store opened is the scheduler's store {@code n} ({@link ManualScheduler#maintenance}).
 */
final class StoreFixture implements BeforeEachCallback, AfterEachCallback {
  private Path data;
  private ManualScheduler scheduler;

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    data = Files.createTempDirectory("quarry-store-test");
    scheduler = new ManualScheduler();
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    scheduler.shutdownNow();
    IOUtils.rm(data);
  }

  /** The test's data directory (each store in {@code <data>/<name>}). */
  Path data() {
    return data;
  }

  /** Runs the stores' periodic tasks only when the test says so. */
  ManualScheduler scheduler() {
    return scheduler;
  }

  /**
   * Opens (or reopens) index {@code name} on the real file system as the store does ({@link
   * BucketDirectories#DEFAULT}), with the system clock.
   */
  IndexStore open(String name, IndexOptions options, int permits) throws IOException {
    return open(name, options, BucketDirectories.DEFAULT, new CompactionPermits(permits));
  }

  /** Opens index {@code name} with the system clock. */
  IndexStore open(
      String name, IndexOptions options, BucketDirectories directories, CompactionPermits node)
      throws IOException {
    return open(name, options, directories, node, Clock.systemUTC());
  }

  /** Opens index {@code name}: its buckets through {@code directories}, on the node's permits. */
  IndexStore open(
      String name,
      IndexOptions options,
      BucketDirectories directories,
      CompactionPermits node,
      Clock clock)
      throws IOException {
    return new IndexStore(name, data.resolve(name), options, scheduler, clock, directories, node);
  }

  /** {@code count} events from {@code from}, committed in segments of 2,000. */
  static void fill(IndexStore store, int from, int count) throws Exception {
    for (int at = from; at < from + count; at += 2_000) {
      store.add(NumberedEvents.events(at, Math.min(2_000, from + count - at)));
      store.commit();
    }
  }
}
