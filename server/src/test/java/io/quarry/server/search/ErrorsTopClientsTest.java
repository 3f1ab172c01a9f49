package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.RunningServer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The README's headline search, {@code status>=500 | stats count by clientip | sort -count | head
 * 10}, and {@code stats count by method, status} over the block layout (issue 21): blocks whose
 * statuses all match the filter, none of them, or some (their four-bit codes selected sixteen at a
 * time, {@code NibbleSelect}; and a block of two statuses, one-bit codes), a block where some
 * events have two client IPs and one where some have none — the same answer as the event layout
 * over the same events (one real server, an index of each format, searched over HTTP) and as the
 * counts computed here from the events themselves; and the job's costs say the code paths ran.
 */
class ErrorsTopClientsTest {
  private static final String PASSWORD = "errors-top-password";
  private static final String TOKEN = "errors-top-token";
  private static final long START = LayoutEvents.START;
  private static final int EVENTS = 3000; // 12 requests of 250: one block each

  @RegisterExtension
  static final RunningServer SERVER =
      LayoutEvents.running(PASSWORD, TOKEN, Map.of(), EVENTS, ErrorsTopClientsTest::envelope);

  private static final String[] ALL = {
    "200", "404", "500", "503", "400", "403", "408", "301", "304", "206"
  };
  private static final String[] ERRORS = {"500", "501", "502", "503", "504", "505"};
  private static final String[] FINE = {"200", "201", "204", "301", "302", "404"};
  private static final String[] METHODS = {
    "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"
  };

  /** Event {@code i}'s status: block 0 all errors, block 1 none, block 9 two values, else mixed. */
  private static String status(int i) {
    return switch (i / 250) {
      case 0 -> ERRORS[i % ERRORS.length];
      case 1 -> FINE[i % FINE.length];
      case 9 -> i % 7 == 0 ? "500" : "200";
      default -> ALL[(i * 7 + i / 3) % ALL.length];
    };
  }

  /** Event {@code i}'s client IPs: two in some events of block 10, none in some of block 11. */
  private static List<String> clientips(int i) {
    int block = i / 250;
    if (block == 11 && i % 9 == 0) {
      return List.of();
    }
    String ip = ip((i * i + 3 * i) % 31);
    return block == 10 && i % 4 == 0 ? List.of(ip, ip(31 + i % 3)) : List.of(ip);
  }

  private static String ip(int k) {
    return String.format("10.0.1.%03d", k); // padded: text order is number order
  }

  private static String method(int i) {
    return METHODS[(i + i / 5) % METHODS.length];
  }

  private static String envelope(String index, int i) {
    Map<String, List<String>> fields = new java.util.LinkedHashMap<>();
    fields.put("status", List.of(status(i)));
    fields.put("method", List.of(method(i)));
    fields.put("clientip", clientips(i));
    return AccessEnvelopes.of(index, i, fields);
  }

  private static final List<String> RANGES =
      List.of("", "earliest=" + (START + 1000) + " latest=" + (START + 19000) + " ");

  @Test
  void bothLayoutsAnswerAsTheEventsSay() throws Exception {
    for (String range : RANGES) {
      long from = range.isEmpty() ? Long.MIN_VALUE : START + 1000;
      long to = range.isEmpty() ? Long.MAX_VALUE : START + 19000;
      TreeMap<String, Long> errors = new TreeMap<>(); // status>=500, by client IP
      TreeMap<String, Long> pairs = new TreeMap<>(); // by method, status
      for (int i = 0; i < EVENTS; i++) {
        long time = START + i * 7L;
        if (time < from || time >= to) {
          continue;
        }
        if (Integer.parseInt(status(i)) >= 500) {
          for (String ip : clientips(i)) {
            errors.merge(ip, 1L, Long::sum);
          }
        }
        pairs.merge(method(i) + "|" + status(i), 1L, Long::sum);
      }
      List<String> byClient = new ArrayList<>();
      errors.forEach((ip, n) -> byClient.add(ip + "|" + n));
      // sort -count keeps the ties in the order stats gave them, by client IP (a stable sort)
      List<String> top =
          errors.entrySet().stream()
              .sorted(Comparator.comparingLong(e -> -e.getValue()))
              .limit(10)
              .map(e -> e.getKey() + "|" + e.getValue())
              .toList();
      List<String> byPair = new ArrayList<>();
      pairs.forEach((pair, n) -> byPair.add(pair + "|" + n));
      for (String index : List.of("ev", "bl")) {
        String search = "search index=" + index + " " + range;
        assertThat(rows(search + "status>=500 | stats count by clientip", "clientip", "count"))
            .as(index + " " + range)
            .isEqualTo(byClient);
        assertThat(
                rows(
                    search + "status>=500 | stats count by clientip | sort -count | head 10",
                    "clientip",
                    "count"))
            .as(index + " " + range)
            .isEqualTo(top);
        assertThat(rows(search + "| stats count by method, status", "method", "status", "count"))
            .as(index + " " + range)
            .isEqualTo(byPair);
      }
    }
    // ties: the data has some among the ten (else the order above says little)
    assertThat(
            rows(
                    "search index=bl status>=500 | stats count by clientip | sort -count | head 10",
                    "count")
                .stream()
                .distinct()
                .count())
        .isLessThan(10);
  }

  @Test
  void moreShapesAnswerAsTheEventLayout() throws Exception {
    List<String> queries = new ArrayList<>();
    for (String range : RANGES) {
      for (String search :
          List.of(
              "status>=500 | top limit=5 clientip",
              "NOT status>=500 | stats count by clientip",
              "status>=500 status<504 | stats count by clientip | sort -count | head 3",
              "status>=500 | stats count by method, status",
              "status=404 | stats count by method, status",
              "| stats count by status, clientip",
              "status>=500 | stats count by clientip, method")) {
        queries.add(range + search);
      }
    }
    LayoutEvents.assertSameOverBoth(SERVER, queries);
  }

  @Test
  void theJobsCostsSayWhichCodePathsRan() throws Exception {
    SearchStats errors = stats("search index=bl status>=500 | stats count by clientip");
    // blocks 2-8 and 10-11 hold ten statuses (four-bit codes), 7 of them mixed with a client IP
    // each (block 10 has two in some events, block 11 none in some: read as rows)
    assertThat(errors.blocksSelectedByWords()).isEqualTo(7);
    assertThat(errors.scanCosts().journalBlocks()).isPositive(); // blocks 10 and 11
    assertThat(
            stats("search index=ev status>=500 | stats count by clientip").blocksSelectedByWords())
        .isZero();
    // every block holds all 7 methods and 6 or 10 statuses (4 + 4 bits, a byte of each field read
    // at a time) but block 9, whose 2 statuses take 4 + 1 bits (the loop for any widths)
    SearchStats pairs = stats("search index=bl | stats count by method, status");
    assertThat(pairs.blocksCountedByCodePairs()).isEqualTo(12);
    assertThat(pairs.scanCosts().journalBlocks()).isZero();
    // as the job inspector shows them (over HTTP)
    JsonNode inspect =
        EventRunSearchTest.inspect(
            SERVER.server(), PASSWORD, "search index=bl status>=500 | stats count by clientip");
    assertThat(inspect.at("/costs/scan/blocksSelectedByWords").asLong())
        .as(inspect.toString())
        .isEqualTo(7);
    assertThat(inspect.at("/costs/scan/sharedMatchSlices").isNumber()).isTrue();
    assertThat(
            EventRunSearchTest.inspect(
                    SERVER.server(), PASSWORD, "search index=bl | stats count by method, status")
                .at("/costs/scan/blocksCountedByCodePairs")
                .asLong())
        .isEqualTo(12);
  }

  private static SearchStats stats(String query) throws Exception {
    return SERVER
        .server()
        .search()
        .run(query, SERVER.server().search().plan(query, null, null), page -> {});
  }

  /** The answer's rows, each the {@code fields}' values joined by {@code |}, in order. */
  private static List<String> rows(String query, String... fields) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<String> rows = new ArrayList<>();
    for (String line : SERVER.exportOk(query).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode result = json.readTree(line).get("result");
      if (result == null) {
        continue;
      }
      List<String> values = new ArrayList<>();
      for (String field : fields) {
        values.add(result.path(field).asText());
      }
      rows.add(String.join("|", values));
    }
    return rows;
  }
}
