package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing child JVM with SIGKILL at random moments, restarts it on the same data, and
 * checks at the end that every acknowledged event is in the index exactly once (unacknowledged ones
 * at most once).
 */
class CrashRecoveryTest {
  static final int KILLS = Integer.getInteger("crash.kills", 20);

  @TempDir Path data;

  @Test
  void killNineLosesNothingAcknowledgedAndDuplicatesNothing() throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    int[] acknowledged = new int[KILLS];
    for (int round = 0; round < KILLS; round++) {
      ProcessBuilder builder =
          new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp",
              System.getProperty("java.class.path"),
              CrashWriter.class.getName(),
              data.toString(),
              Integer.toString(round));
      builder.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process child = builder.start();
      int target = 1 + random.nextInt(150);
      int last = -1;
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          last = Integer.parseInt(line.substring(4));
          if (last >= target) {
            break;
          }
        }
        child.destroyForcibly(); // SIGKILL
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(last)
          .as("round %d acknowledged something (seed %d)", round, seed)
          .isGreaterThanOrEqualTo(0);
      acknowledged[round] = last;
    }

    Map<String, Integer> copies = new HashMap<>();
    try (EventStore store = EventStore.open(data, List.of("main"))) {
      store.scan(
          List.of("main"),
          new MatchAllDocsQuery(),
          Long.MIN_VALUE,
          Long.MAX_VALUE,
          event -> {
            String raw = event.event().raw();
            copies.merge(raw.substring(6, raw.indexOf(" payload")), 1, Integer::sum);
            return true;
          });
    }
    java.util.List<String> missing = new java.util.ArrayList<>();
    for (int round = 0; round < KILLS; round++) {
      for (int n = 0; n <= acknowledged[round]; n++) {
        if (!copies.containsKey(round + "-" + n)) {
          missing.add(round + "-" + n);
        }
      }
    }
    String buckets;
    try (EventStore store = EventStore.open(data, List.of("main"))) {
      buckets = store.index("main").buckets().toString();
    }
    assertThat(missing)
        .as("acknowledged but missing (seed %d); buckets %s", seed, buckets)
        .isEmpty();
    long checked = 0;
    for (int round = 0; round < KILLS; round++) {
      for (int n = 0; n <= acknowledged[round]; n++) {
        assertThat(copies.get(round + "-" + n))
            .as("event %d-%d (seed %d)", round, n, seed)
            .isEqualTo(1);
        checked++;
      }
    }
    assertThat(copies.values()).as("no event stored twice (seed %d)", seed).allMatch(c -> c == 1);
    System.out.printf(
        "crash test: %d kill points, %d acknowledged events checked, 0 lost, 0 duplicated, %d stored (seed %d)%n",
        KILLS, checked, copies.size(), seed);
  }
}
