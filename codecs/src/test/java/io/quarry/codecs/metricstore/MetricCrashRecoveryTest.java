package io.quarry.codecs.metricstore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM writing metric points from two threads with SIGKILL at random moments (its
 * buckets roll every 2,000 points and merge three at a time, so some kills land inside a roll or a
 * merge), restarts it on the same data, and checks at the end that every acknowledged point is
 * stored exactly once and nothing else more than once.
 */
class MetricCrashRecoveryTest {
  static final int KILLS = Integer.getInteger("crash.kills", 10);

  @TempDir Path data;

  @Test
  void killNineLosesNoAcknowledgedPointAndDuplicatesNone() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    int[][] acknowledged = new int[KILLS][MetricCrashWriter.THREADS];
    for (int round = 0; round < KILLS; round++) {
      ProcessBuilder builder =
          new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp",
              System.getProperty("java.class.path"),
              MetricCrashWriter.class.getName(),
              data.toString(),
              Integer.toString(round));
      Path errors = data.resolveSibling(data.getFileName() + "-metric-child-" + round + ".err");
      builder.redirectError(errors.toFile());
      Process child = builder.start();
      int target = 1 + random.nextInt(200);
      int[] last = new int[MetricCrashWriter.THREADS];
      Arrays.fill(last, -1);
      int acks = 0;
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          String[] parts = line.split(" ");
          last[Integer.parseInt(parts[1])] = Integer.parseInt(parts[2]);
          if (++acks >= target) {
            break;
          }
        }
        child.destroyForcibly(); // SIGKILL
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(acks)
          .as(
              "round %d acknowledged something (seed %d); child stderr:%n%s",
              round, seed, Files.readString(errors))
          .isPositive();
      acknowledged[round] = last;
    }

    Map<Long, Integer> copies = new HashMap<>();
    Map<Long, Double> values = new HashMap<>();
    try (MetricIndexStore store =
        new MetricIndexStore(
            "m", data.resolve("m"), MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      store.scan(
          SeriesSelector.ALL,
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          key -> {
            long thread = Long.parseLong(key.dimension("thread"));
            return (time, value) -> {
              long id = time * MetricCrashWriter.THREADS + thread;
              copies.merge(id, 1, Integer::sum);
              values.put(id, value);
            };
          });
    }
    long merged = 0;
    for (Path dir : MetricBucketFormat.list(data.resolve("m").resolve("metric-buckets"))) {
      WarmBucket bucket = WarmBucket.open(dir);
      merged += bucket.firstRoll < bucket.lastRoll ? 1 : 0;
    }
    long written = 0;
    for (int[] round : acknowledged) {
      for (int last : round) {
        written += last + 1;
      }
    }
    System.out.println(
        "MetricCrashRecoveryTest: "
            + written
            + " points acknowledged, "
            + merged
            + " merged buckets");
    if (written >= 40_000) { // 20 rolls or more: the merging thread had work
      assertThat(merged).as("merged buckets (seed %d)", seed).isPositive();
    }
    for (Map.Entry<Long, Integer> entry : copies.entrySet()) {
      assertThat(entry.getValue()).as("copies of point %d (seed %d)", entry.getKey(), seed).isOne();
    }
    for (int round = 0; round < KILLS; round++) {
      for (int thread = 0; thread < MetricCrashWriter.THREADS; thread++) {
        for (int i = 0; i <= acknowledged[round][thread]; i++) {
          long id = (round * MetricCrashWriter.ROUND_SPAN + i) * MetricCrashWriter.THREADS + thread;
          assertThat(values.get(id))
              .as("acknowledged point %d of thread %d, round %d (seed %d)", i, thread, round, seed)
              .isEqualTo((double) i);
        }
      }
    }
  }
}
