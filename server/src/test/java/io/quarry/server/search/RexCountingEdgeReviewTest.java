package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of lane rexscan: {@link RexCounting} against the page path and against counts worked out
 * from the lines, on keys the slot keeps or does not (lengths 0..40 around 8 and 16, keys equal in
 * their first 16 bytes), more distinct keys than the table holds (hand-ons in the middle of a
 * slice), a term filter, several fused {@code rex}es, both layouts.
 */
class RexCountingEdgeReviewTest {
  private static final String PASSWORD = "rex-edge-pw";
  private static final int DISTINCT = BytesCounts.MAX_KEYS + 4_000;

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;
  private static final Map<String, Long> byIp = new TreeMap<>();
  private static final Map<String, Long> byIpTook = new TreeMap<>();

  private static final String LONG = "abcdefghijklmnopqrstuvwxyz0123456789ABCD"; // 40 bytes

  private static String line(int i) {
    String time = String.format("2026-01-01 %02d:%02d:%02d ", i / 3600 % 24, i / 60 % 60, i % 60);
    String ip;
    if (i < DISTINCT) {
      ip = "u" + i; // one key each: the table fills and is handed on mid-slice
    } else {
      int k = i - DISTINCT;
      int length = 1 + k % LONG.length();
      // a key of every length, and keys equal in their first 16 (and 8) bytes, differing later
      ip = LONG.substring(0, length) + (k % 3 == 0 ? "" : "#" + (k % 7));
    }
    boolean took = i % 5 == 0;
    byIp.merge(ip, 1L, Long::sum);
    if (took) {
      byIpTook.merge(ip, 1L, Long::sum);
    }
    if (i % 11 == 0) { // the rex does not match: the event's own ip, by key=value
      return time + "to ip=" + ip + (took ? " took=3" : " q=1");
    }
    return time + "from " + ip + (took ? " took=3" : " q=1");
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(dataDirectory, PASSWORD, TestServers.TOKEN, Map.of());
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < DISTINCT + 3_000; i++) {
      order.add(i);
    }
    Collections.shuffle(order, new Random(41));
    String lines = EventRunSearchTest.lines(order, RexCountingEdgeReviewTest::line);
    FusedScanFixtures.loadLayouts(server, lines);
  }

  private static final String REX = " | rex \"from (?<ip>\\S+)\"";
  private static final String PAGE_STAGE = " | eval unused=1";

  private static Map<String, Long> counts(String search) throws Exception {
    Map<String, Long> counted = new TreeMap<>();
    for (JsonNode result : EventRunSearchTest.results(server, PASSWORD, search)) {
      if (result.has("ip")) {
        Long before = counted.put(result.get("ip").asText(), result.get("count").asLong());
        assertThat(before).as("one row per ip: " + result).isNull();
      }
    }
    return counted;
  }

  @Test
  void everyKeyLengthAndMoreKeysThanTheTableHoldsCountAsTheLinesWereMade() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      String search = "index=" + index + REX + " | stats count by ip";
      assertThat(counts(search)).as(index).isEqualTo(byIp);
      assertThat(counts("index=" + index + REX + PAGE_STAGE + " | stats count by ip"))
          .as(index)
          .isEqualTo(byIp);
    }
  }

  @Test
  void topRareAndRenamedCountsAsThePagePathDoes() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      for (String tail :
          List.of(
              " | top limit=5 countfield=n percentfield=p ip",
              " | rare limit=7 ip",
              " | top limit=0 showperc=f ip",
              " | stats count AS n by ip | sort - n, ip | head 20",
              " | stats count by ip | where count > 1")) {
        List<JsonNode> fused =
            EventRunSearchTest.results(server, PASSWORD, "index=" + index + REX + tail);
        List<JsonNode> paged =
            EventRunSearchTest.results(
                server, PASSWORD, "index=" + index + REX + PAGE_STAGE + tail);
        assertThat(fused).as(index + tail).isNotEmpty().isEqualTo(paged);
      }
    }
  }

  @Test
  void aTermFilterCountsOnlyItsEvents() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      assertThat(counts("index=" + index + " took" + REX + " | stats count by ip"))
          .as(index)
          .isEqualTo(byIpTook);
      assertThat(counts("index=" + index + " took=3" + REX + " | stats count by ip"))
          .as(index)
          .isEqualTo(byIpTook);
    }
  }

  @Test
  void severalFusedRexesCountAsThePagePathDoes() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      String other = " | rex \"(?<w>\\w+)\"";
      assertThat(counts("index=" + index + other + REX + " | stats count by ip"))
          .as(index)
          .isEqualTo(byIp);
      String shorter = " | rex \"from (?<ip>\\w)\"";
      assertThat(counts("index=" + index + REX + shorter + " | stats count by ip"))
          .as(index)
          .isEqualTo(
              counts("index=" + index + REX + shorter + PAGE_STAGE + " | stats count by ip"));
    }
  }
}
