package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rex … | stats count by} its field counted by the scan itself ({@link RexCounting}) on a
 * real server, in both layouts (index {@code ev} one document per event, {@code bl} blocks of
 * events), against counts worked out from how the lines were made and against the page path (the
 * same search with a page stage between {@code rex} and {@code stats}, which the counting does not
 * take): lines the {@code rex} matches, lines it does not whose own key=value {@code ip} then
 * counts, lines with no value at all, non-ASCII lines (some blocks all ASCII, some not), an empty
 * capture, a one-character line, thousands of events over several blocks, and a time range cutting
 * through blocks. The job's {@code costs.scan.eventsCountedByRex} shows where the counting ran.
 */
class RexCountingSearchTest {
  private static final String PASSWORD = "rex-counting-pw";
  private static final int LINES = 9_000;
  private static final long MIDNIGHT = 1767225600L; // 2026-01-01T00:00:00Z

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;
  private static final Map<String, Long> byIp = new TreeMap<>();
  private static final Map<String, Long> byIpInRange = new TreeMap<>();
  private static final Map<String, Long> bySid = new TreeMap<>(); // the rex "sid=(?<s>\w*)"
  private static long fusedAscii; // lines the rex matches, ASCII ones

  /** The range of {@link #RANGE}: its earliest and latest second, as offsets from midnight. */
  private static final int FROM = 2_345, TO = 6_789;

  private static final String RANGE =
      " earliest=" + (MIDNIGHT + FROM) + " latest=" + (MIDNIGHT + TO);

  private static String line(int i) {
    String time = String.format("2026-01-01 %02d:%02d:%02d ", i / 3600, i / 60 % 60, i % 60);
    int n = i % 17;
    String ip = null;
    String sid = null;
    String text =
        switch (i % 8) {
          case 0, 6 -> {
            ip = "10.0.0." + n;
            sid = "S" + n;
            yield "from " + ip + " sid=S" + n;
          }
          case 1 -> {
            ip = "192.168.1." + (i % 251); // more keys
            yield "from " + ip + " took=3";
          }
          case 2 -> {
            ip = "K" + n; // the rex does not match: the event's own ip, by key=value
            yield "user=u ip=K" + n;
          }
          case 3 -> "nothing here x=1";
          case 4 -> {
            ip = "10.0.2." + n; // a text past ASCII: its block read event by event
            yield "from " + ip + " café";
          }
          case 5 -> {
            sid = ""; // an empty capture
            yield "GET /a?sid= user=e";
          }
          default -> "z"; // the shortest text after its time
        };
    if (ip != null) {
      byIp.merge(ip, 1L, Long::sum);
      if (i >= FROM && i <= TO) {
        byIpInRange.merge(ip, 1L, Long::sum);
      }
      if (i % 8 != 2 && i % 8 != 4) {
        fusedAscii++;
      }
    }
    if (sid != null) {
      bySid.merge(sid, 1L, Long::sum);
    }
    return time + text;
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(dataDirectory, PASSWORD, TestServers.TOKEN, Map.of());
    FusedScanFixtures.loadShuffled(
        server, LINES, i -> i % 8 == 4 || i % 5 == 0, 40, RexCountingSearchTest::line);
  }

  private static final String REX = " | rex \"from (?<ip>\\S+)\"";
  private static final String PAGE_STAGE = FusedScanFixtures.PAGE_STAGE; // no counting

  private static Map<String, Long> counts(String search, String by) throws Exception {
    Map<String, Long> counted = new TreeMap<>();
    for (JsonNode result : EventRunSearchTest.results(server, PASSWORD, search)) {
      if (result.has(by)) {
        counted.put(result.get(by).asText(), result.get("count").asLong());
      }
    }
    return counted;
  }

  private static long countedByRex(String search) throws Exception {
    return FusedScanFixtures.scanCount(server, PASSWORD, search, "eventsCountedByRex");
  }

  @Test
  void countsAsTheLinesWereMadeInBothLayouts() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      assertThat(counts("index=" + index + REX + " | stats count by ip", "ip"))
          .as(index)
          .isEqualTo(byIp);
      assertThat(counts("index=" + index + REX + PAGE_STAGE + " | stats count by ip", "ip"))
          .as(index)
          .isEqualTo(byIp);
    }
  }

  @Test
  void aTimeRangeCuttingThroughBlocksCountsOnlyItsEvents() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      assertThat(counts("index=" + index + RANGE + REX + " | stats count by ip", "ip"))
          .as(index)
          .isEqualTo(byIpInRange);
    }
  }

  @Test
  void anEmptyCaptureCountsAsThePagePathDoes() throws Exception {
    String rex = " | rex \"sid=(?<s>\\w*)\"";
    for (String index : FusedScanFixtures.LAYOUTS) {
      Map<String, Long> counted = counts("index=" + index + rex + " | stats count by s", "s");
      assertThat(counted)
          .as(index)
          .isEqualTo(counts("index=" + index + rex + PAGE_STAGE + " | stats count by s", "s"));
      assertThat(counted.get("S3")).isEqualTo(bySid.get("S3"));
    }
  }

  @Test
  void topCountsAndPercentagesAsThePagePathDoes() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      String top = " | top limit=0 ip";
      List<JsonNode> fused =
          EventRunSearchTest.results(server, PASSWORD, "index=" + index + REX + top);
      List<JsonNode> paged =
          EventRunSearchTest.results(server, PASSWORD, "index=" + index + REX + PAGE_STAGE + top);
      assertThat(fused).as(index).hasSize(byIp.size()).isEqualTo(paged);
    }
  }

  @Test
  void theScanCountsExactlyWhereThePlanSays() throws Exception {
    for (String index : FusedScanFixtures.LAYOUTS) {
      String search = "index=" + index + REX + " | stats count by ip";
      // every ASCII line the rex matches (in a block with a non-ASCII line too): the others went
      // to the page source
      assertThat(countedByRex(search)).as(index).isEqualTo(fusedAscii);
      assertThat(countedByRex("index=" + index + REX + PAGE_STAGE + " | stats count by ip"))
          .isZero();
      assertThat(countedByRex("index=" + index + REX + " | stats count, max(_time) by ip"))
          .isZero();
      // a search-time field's comparison, which each event's page checks: no counting
      assertThat(countedByRex("index=" + index + " took=3" + REX + " | stats count by ip"))
          .as("a per-event filter reads pages")
          .isZero();
      assertThat(server.search().explain(server.search().plan(search, null, null)))
          .containsEntry("counted_by_rex", "ip");
      assertThat(
              server
                  .search()
                  .explain(
                      server
                          .search()
                          .plan(
                              "index=" + index + REX + PAGE_STAGE + " | stats count by ip",
                              null,
                              null)))
          .doesNotContainKey("counted_by_rex");
    }
  }
}
