package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A child JVM killed with SIGKILL in the middle of a deferred compaction (its merge stopped after
 * writing files), three times on the same data: after each restart every acknowledged event is
 * found exactly once, before the compaction runs again and after it has.
 */
class CompactionCrashTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void killedMidCompactionLosesAndDuplicatesNothing(BucketFormat format) throws Exception {
    int acknowledged = 0; // events 0 .. acknowledged - 1
    for (int round = 0; round < 3; round++) {
      ProcessBuilder builder =
          new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp",
              System.getProperty("java.class.path"),
              CompactionCrashWriter.class.getName(),
              data.toString(),
              Integer.toString(acknowledged),
              Integer.toString(3 + round),
              format.configName());
      Path errors = data.resolveSibling(data.getFileName() + "-child-" + round + ".err");
      builder.redirectError(errors.toFile());
      Process child = builder.start();
      boolean compacting = false;
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          if (line.startsWith("ACK ")) {
            acknowledged = Integer.parseInt(line.substring(4)) + 1;
          } else if (line.equals("COMPACTING")) {
            compacting = true;
            break;
          }
        }
        child.destroyForcibly(); // SIGKILL, the compaction's merge half written
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(compacting)
          .as("round %d reached its compaction; child stderr:%n%s", round, Files.readString(errors))
          .isTrue();

      IndexOptions options =
          IndexOptions.builder()
              .commitInterval(Duration.ofHours(1))
              .format(format)
              .compaction(new CompactionSettings(true, Duration.ofMillis(100), 1L << 40))
              .build();
      try (IndexStore store =
          new IndexStore(
              "main",
              data.resolve("main"),
              options,
              scheduler,
              Clock.systemUTC(),
              FSDirectory::open)) {
        assertEachOnce(store, acknowledged);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!(store.compaction().settled() && store.compaction().compactions() > 0)
            && System.nanoTime() < deadline) {
          Thread.sleep(20);
        }
        assertThat(store.compaction().compactions()).as("compacted after the restart").isPositive();
        assertEachOnce(store, acknowledged);
        assertThat(StoredRaws.segmentLevels(store)).allMatch(level -> level.equals("12 compact"));
      }
    }
  }

  private static void assertEachOnce(IndexStore store, int events) throws Exception {
    Map<String, Integer> found = StoredRaws.of(store);
    for (int i = 0; i < events; i++) {
      assertThat(found.get("event " + i)).as("acknowledged event %d", i).isEqualTo(1);
    }
    assertThat(found).hasSize(events);
  }
}
