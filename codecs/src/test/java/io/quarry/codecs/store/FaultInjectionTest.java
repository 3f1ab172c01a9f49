package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.FilterIndexOutput;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.store.MockDirectoryWrapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Random I/O exceptions (Lucene's {@link MockDirectoryWrapper}) and a full disk under the bucket
 * directories: a write either fails, and is not acknowledged, or succeeds and survives. After every
 * faulty run the store is reopened on healthy disks and must hold each acknowledged event exactly
 * once.
 */
class FaultInjectionTest {
  @TempDir Path dataDirectory;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final List<MockDirectoryWrapper> wrappers = new ArrayList<>();
  private BucketFormat format;

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private IndexStore open(Random random, BucketDirectories directories) throws IOException {
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofHours(1)) // commits are driven by the test
            .maxBucketEvents(400)
            .maxHotAge(Duration.ofDays(1))
            .format(format)
            .build();
    return new IndexStore(
        "main", dataDirectory.resolve("main"), options, scheduler, Clock.systemUTC(), directories);
  }

  private IndexStore openFaulty(Random random) throws IOException {
    return open(
        random,
        path -> {
          MockDirectoryWrapper wrapper =
              new MockDirectoryWrapper(
                  new Random(random.nextLong()), new DiskFullDirectory(FSDirectory.open(path)));
          wrapper.setCheckIndexOnClose(false); // the healthy reopen checks instead
          wrappers.add(wrapper);
          return wrapper;
        });
  }

  /** Room left on the simulated disk, shared by every bucket directory; negative = unlimited. */
  private final AtomicLong room = new AtomicLong(-1);

  /** A directory on a disk that fills up: writes past {@link #room} fail like ENOSPC. */
  private final class DiskFullDirectory extends FilterDirectory {
    DiskFullDirectory(Directory in) {
      super(in);
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
      return new Output(in.createOutput(name, context));
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
        throws IOException {
      return new Output(in.createTempOutput(prefix, suffix, context));
    }

    private final class Output extends FilterIndexOutput {
      Output(IndexOutput out) {
        super("disk-full(" + out + ")", out.getName(), out);
      }

      private void take(long bytes) throws IOException {
        if (room.get() >= 0 && room.addAndGet(-bytes) < 0) {
          room.set(0);
          throw new IOException("No space left on device (simulated)");
        }
      }

      @Override
      public void writeByte(byte b) throws IOException {
        take(1);
        out.writeByte(b);
      }

      @Override
      public void writeBytes(byte[] b, int offset, int length) throws IOException {
        take(length);
        out.writeBytes(b, offset, length);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void randomIoExceptionsNeverLoseOrDuplicateAcknowledgedEvents(BucketFormat format)
      throws IOException {
    this.format = format;
    run(new Random(0x5eed), false);
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aFullDiskNeverLosesOrDuplicatesAcknowledgedEvents(BucketFormat format) throws IOException {
    this.format = format;
    run(new Random(0xd15c), true);
  }

  private void run(Random random, boolean diskFull) throws IOException {
    Map<String, Integer> acknowledged = new HashMap<>();
    int failures = 0;
    int next = 0;
    for (int round = 0; round < 3; round++) {
      wrappers.clear();
      IndexStore store;
      try {
        store = openFaulty(random);
      } catch (IOException e) {
        throw new AssertionError("opening without faults failed", e);
      }
      for (MockDirectoryWrapper wrapper : wrappers) {
        arm(wrapper, random, diskFull);
      }
      int armed = wrappers.size();
      for (int batch = 0; batch < 40; batch++) {
        for (int i = armed; i < wrappers.size(); i++) { // buckets opened by a roll
          arm(wrappers.get(i), random, diskFull);
        }
        armed = wrappers.size();
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 1 + random.nextInt(20); i++) {
          events.add(
              new Event(
                  1_000_000L * next,
                  "event " + next + " " + "x".repeat(random.nextInt(200)),
                  "h",
                  "s",
                  "st",
                  Map.of()));
          next++;
        }
        try {
          store.add(events);
          for (Event event : events) {
            acknowledged.merge(event.raw(), 1, Integer::sum);
          }
        } catch (IOException | RuntimeException e) {
          failures++;
        }
        if (random.nextInt(10) == 0) {
          try {
            store.commit();
          } catch (IOException | RuntimeException e) {
            failures++;
          }
        }
      }
      // the disk is healthy again: writes succeed without a restart
      for (MockDirectoryWrapper wrapper : wrappers) {
        disarm(wrapper);
      }
      List<Event> after =
          List.of(new Event(1_000_000L * next, "after " + round, "h", "s", "st", Map.of()));
      next++;
      store.add(after);
      acknowledged.merge(after.get(0).raw(), 1, Integer::sum);
      for (MockDirectoryWrapper wrapper : wrappers) {
        disarm(wrapper); // buckets reopened by the recovery
      }
      store.close();
      verify(acknowledged);
    }
    assertThat(failures).as("faults were injected").isGreaterThan(0);
    assertThat(acknowledged).isNotEmpty();
  }

  private void arm(MockDirectoryWrapper wrapper, Random random, boolean diskFull) {
    if (diskFull) {
      if (room.get() < 0) {
        room.set(random.nextInt(256 * 1024));
      }
    } else {
      wrapper.setRandomIOExceptionRate(0.02);
      wrapper.setRandomIOExceptionRateOnOpen(0.02);
    }
  }

  private void disarm(MockDirectoryWrapper wrapper) {
    room.set(-1);
    wrapper.setRandomIOExceptionRate(0);
    wrapper.setRandomIOExceptionRateOnOpen(0);
  }

  /** Reopens on healthy directories: every acknowledged event is there exactly once. */
  private void verify(Map<String, Integer> acknowledged) throws IOException {
    try (IndexStore store = open(new Random(), FSDirectory::open)) {
      Map<String, Integer> found = StoredRaws.of(store);
      assertThat(store.quarantinedBuckets()).isZero();
      for (Map.Entry<String, Integer> event : acknowledged.entrySet()) {
        assertThat(found.get(event.getKey()))
            .as("acknowledged event '%s'", event.getKey())
            .isEqualTo(1);
      }
      found.values().forEach(count -> assertThat(count).as("no duplicates").isEqualTo(1));
    }
  }
}
