package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kills a child JVM that writes from two threads with SIGKILL at random moments, restarts it on the
 * same data, and checks at the end that every acknowledged event is in the index exactly once
 * (unacknowledged ones at most once): an index of events, and one of blocks (read back with the
 * default format configured, as after a configuration change).
 */
class CrashRecoveryTest {
  static final int KILLS = Integer.getInteger("crash.kills", 20);

  @TempDir Path data;

  @ParameterizedTest
  @ValueSource(strings = {"events", "blocks"})
  void killNineLosesNothingAcknowledgedAndDuplicatesNothing(String format) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    int[][] acknowledged = new int[KILLS][CrashWriter.THREADS];
    for (int round = 0; round < KILLS; round++) {
      ProcessBuilder builder =
          new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-cp",
              System.getProperty("java.class.path"),
              CrashWriter.class.getName(),
              data.toString(),
              Integer.toString(round),
              format);
      Path errors = data.resolveSibling(data.getFileName() + "-child-" + round + ".err");
      builder.redirectError(errors.toFile());
      Process child = builder.start();
      int target = 1 + random.nextInt(150);
      int[] last = new int[CrashWriter.THREADS];
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
              round, seed, java.nio.file.Files.readString(errors))
          .isPositive();
      acknowledged[round] = last;
    }

    Map<String, Integer> copies = new HashMap<>();
    String buckets;
    // opened with the default format: buckets are read by the layout they were written in
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
      buckets = store.index("main").buckets().toString();
    }
    List<String> missing = new ArrayList<>();
    long checked = 0;
    for (int round = 0; round < KILLS; round++) {
      for (int thread = 0; thread < CrashWriter.THREADS; thread++) {
        for (int n = 0; n <= acknowledged[round][thread]; n++) {
          checked++;
          if (!copies.containsKey(round + "-" + thread + "-" + n)) {
            missing.add(round + "-" + thread + "-" + n);
          }
        }
      }
    }
    assertThat(missing)
        .as("acknowledged but missing (seed %d); buckets %s", seed, buckets)
        .isEmpty();
    assertThat(copies.values()).as("no event stored twice (seed %d)", seed).allMatch(c -> c == 1);
    System.out.printf(
        "crash test (%s): %d kill points, %d acknowledged events checked, 0 lost, 0 duplicated, %d"
            + " stored (seed %d)%n",
        format, KILLS, checked, copies.size(), seed);
  }
}
