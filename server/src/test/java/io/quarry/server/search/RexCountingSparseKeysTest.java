package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whether {@link RexCounting} counts a slice's keys itself or sends the slice to the page path:
 * after its first {@value RexCounting#JUDGED_AFTER} matches a slice whose keys were mostly met once
 * (session ids) goes to pages, which count such keys for less (session 40: the fused count cost
 * ~25% more CPU at 158k keys in 315k events); keys that repeat are counted in the scan to the end.
 * Four kinds of lines in one index (each kind its own {@code rex}, which the others' lines do not
 * match: those go to the page path, no value): 30,000 distinct keys of ~300 bytes, 30,000 distinct
 * keys of at most 16 bytes (held in the table's slots: its 65,536 keys never fill, so until session
 * 41 all were counted in the scan), 30,000 events over 100 keys, 30,000 keys drawn from 8,000. The
 * answers are the same either way (the expected ones computed here); the job's {@code
 * eventsCountedByRex} says which path counted. Both layouts; 120,000 events are one slice of either
 * (fewer than 131,072 events or 128 blocks).
 */
class RexCountingSparseKeysTest {
  private static final String PASSWORD = "rex-sparse-password";
  private static final int KEYS = 30_000;
  private static final int REPEATED_KEYS = 100;
  private static final int DRAWN_FROM = 8_000;
  private static int drawnKeys; // the distinct keys of KEYS draws from DRAWN_FROM
  private static final List<String> INDEXES = FusedScanFixtures.LAYOUTS;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TestServers.TOKEN, Map.of());
    StringBuilder lines = new StringBuilder();
    String pad = "p".repeat(300);
    java.util.Random random = new java.util.Random(41);
    java.util.Set<Integer> drawn = new java.util.HashSet<>();
    for (int i = 0; i < KEYS; i++) {
      int key = random.nextInt(DRAWN_FROM);
      drawn.add(key);
      lines.append("2026-01-07T10:00:00Z drew d").append(key).append(" q=1\n");
      lines.append("2026-01-07T10:00:00Z from k").append(i).append(pad).append(" q=1\n");
      lines.append("2026-01-07T10:00:00Z sid s").append(i).append(" q=1\n");
      lines.append("2026-01-07T10:00:00Z ip a").append(i % REPEATED_KEYS).append(" q=1\n");
    }
    FusedScanFixtures.loadLayouts(server, lines.toString());
    drawnKeys = drawn.size();
  }

  @Test
  void longKeysMetOnceGoToPagesAfterTheFirstMatchesWithTheSameAnswer() throws Exception {
    for (String index : INDEXES) {
      long counted = countedByRex(index, "from", KEYS, KEYS);
      assertThat(counted).as(index).isEqualTo(RexCounting.JUDGED_AFTER);
    }
  }

  /** Fails before session 41: keys held in the slots never filled the table, all were counted. */
  @Test
  void shortKeysMetOnceGoToPagesAfterTheFirstMatchesWithTheSameAnswer() throws Exception {
    for (String index : INDEXES) {
      long counted = countedByRex(index, "sid", KEYS, KEYS);
      assertThat(counted).as(index).isEqualTo(RexCounting.JUDGED_AFTER);
    }
  }

  @Test
  void repeatedKeysAreCountedInTheScanToTheEnd() throws Exception {
    for (String index : INDEXES) {
      long counted = countedByRex(index, "ip", REPEATED_KEYS, KEYS);
      assertThat(counted).as(index).isEqualTo(KEYS);
    }
  }

  /**
   * Keys drawn at random from 8,000: ~76% of the first 4,096 matches distinct, under the seven
   * eighths that send a slice to pages (each key is met ~4 times in the slice): all counted in the
   * scan. A judgement at three quarters distinct would have sent them to pages.
   */
  @Test
  void keysDrawnFromAFewThousandAreCountedInTheScan() throws Exception {
    for (String index : INDEXES) {
      long counted = countedByRex(index, "drew", drawnKeys, KEYS);
      assertThat(counted).as(index).isEqualTo(KEYS);
    }
  }

  /**
   * Asserts {@code rex "<prefix> (?<k>\S+)" | stats count by k} over {@code index} answers {@code
   * keys} groups of {@code events} in all; the job's {@code eventsCountedByRex}.
   */
  private static long countedByRex(String index, String prefix, int keys, int events)
      throws Exception {
    String search = "index=" + index + " | rex \"" + prefix + " (?<k>\\S+)\" | stats count by k";
    HttpResponse<String> answered =
        TestServers.export(
            server, PASSWORD, search + " | stats count AS keys, sum(count) AS events");
    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
    assertThat(answered.body())
        .as(index + " " + prefix)
        .contains("\"keys\":\"" + keys + "\"")
        .contains("\"events\":\"" + events + "\"");
    return FusedScanFixtures.scanCount(server, PASSWORD, search, "eventsCountedByRex");
  }
}
