package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
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
 * A fused {@code rex}, a key=value field and {@code _time} filled for a block's run of events in
 * one loop per column ({@code EventPages.visit(EventRun)}) against what the lines were made with,
 * and against the per-event path (a time-ordered scan under {@code head}); with a filter: lines the
 * rex matches, lines it does not (the field's own key=value value then), lines without the key, a
 * key twice, and non-ASCII lines, loaded apart from the first ones so that some blocks are all
 * ASCII (runs) and some are not (event by event).
 */
class EventRunSearchTest {
  private static final String PASSWORD = "event-run-pw";
  private static final int LINES = 7_000;
  private static final long MIDNIGHT = 1767225600L; // 2026-01-01T00:00:00Z

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;
  private static final Map<String, long[]> byIp = new TreeMap<>(); // count, min time, max time
  private static final Map<String, Long> bySid = new TreeMap<>();
  private static final Map<String, Long> byIpWithSid = new TreeMap<>();

  private static String line(int i) {
    String time = String.format("2026-01-01 %02d:%02d:%02d ", i / 3600, i / 60 % 60, i % 60);
    int n = i % 13;
    String ip = null;
    List<String> sids = new ArrayList<>();
    String text =
        switch (i % 7) {
          case 0 -> {
            ip = "10.0.0." + n;
            sids.add("S" + n);
            yield "from " + ip + " sid=S" + n;
          }
          case 1 -> {
            ip = "10.0.1." + n;
            yield "from " + ip + " took=3";
          }
          case 2 -> {
            ip = "K" + n; // the rex does not match: the event's own ip
            yield "user=u ip=K" + n;
          }
          case 3 -> "nothing here x=1";
          case 4 -> {
            ip = "10.0.2." + n;
            sids.add("U" + n);
            yield "from " + ip + " café sid=U" + n;
          }
          case 5 -> {
            sids.add("V" + n);
            sids.add("W" + n);
            ip = "10.0.3." + n;
            yield "sid=V" + n + " sid=W" + n + " from " + ip;
          }
          default -> "GET /a?sid= user=e";
        };
    if (ip != null) {
      long[] row = byIp.computeIfAbsent(ip, k -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE});
      row[0]++;
      row[1] = Math.min(row[1], MIDNIGHT + i);
      row[2] = Math.max(row[2], MIDNIGHT + i);
      if (!sids.isEmpty()) {
        byIpWithSid.merge(ip, 1L, Long::sum);
      }
    }
    for (String sid : sids) {
      bySid.merge(sid, 1L, Long::sum);
    }
    return time + text;
  }

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    List<Integer> ascii = new ArrayList<>();
    List<Integer> mixed = new ArrayList<>();
    for (int i = 0; i < LINES; i++) {
      (i % 7 == 4 || i % 3 == 0 ? mixed : ascii).add(i);
    }
    Random random = new Random(21);
    Collections.shuffle(ascii, random);
    Collections.shuffle(mixed, random);
    TestServers.loadRaw(server, lines(ascii, EventRunSearchTest::line)); // ASCII blocks: runs
    TestServers.loadRaw(server, lines(mixed, EventRunSearchTest::line)); // non-ASCII: events
  }

  /** The lines {@code line} makes of {@code order}'s numbers, in that order. */
  static String lines(List<Integer> order, java.util.function.IntFunction<String> line) {
    StringBuilder lines = new StringBuilder();
    for (int i : order) {
      lines.append(line.apply(i)).append('\n');
    }
    return lines.toString();
  }

  private static List<JsonNode> results(String search) throws Exception {
    return results(server, PASSWORD, search);
  }

  /** The results of {@code search} through the export endpoint. */
  static List<JsonNode> results(QuarryServer server, String password, String search)
      throws Exception {
    HttpResponse<String> response = TestServers.export(server, password, search);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<JsonNode> results = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (String row : response.body().split("\n")) {
      JsonNode result = row.isBlank() ? null : json.readTree(row).get("result");
      if (result != null) {
        results.add(result);
      }
    }
    return results;
  }

  /**
   * The events the search's pages got by block runs, as the search's job reports them among its
   * scan costs ({@code SearchStats.eventsByRun}).
   */
  static long byRun(QuarryServer server, String password, String search) throws Exception {
    JsonNode inspect = inspect(server, password, search);
    assertThat(inspect.at("/costs/scan/eventsByRun").isNumber()).as(inspect.toString()).isTrue();
    return inspect.at("/costs/scan/eventsByRun").asLong();
  }

  /**
   * The job inspector's answer ({@code /api/v1/jobs/{id}/inspect}) once the search's job is done.
   */
  static JsonNode inspect(QuarryServer server, String password, String search) throws Exception {
    ObjectMapper json = new ObjectMapper();
    String id =
        json.readTree(
                job(server, password, "POST", "", json.writeValueAsString(Map.of("query", search))))
            .get("id")
            .asText();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      String state =
          json.readTree(job(server, password, "GET", "/" + id, null)).get("state").asText();
      if (!state.equals("RUNNING") && !state.equals("QUEUED")) {
        assertThat(state).isEqualTo("DONE");
        break;
      }
      assertThat(System.nanoTime()).as("job %s still running", id).isLessThan(deadline);
      Thread.sleep(20);
    }
    return json.readTree(job(server, password, "GET", "/" + id + "/inspect", null));
  }

  private static String job(
      QuarryServer server, String password, String method, String path, String body)
      throws Exception {
    java.net.http.HttpRequest.Builder request =
        java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(server.url() + "/api/v1/jobs" + path))
            .header("Authorization", TestServers.basic(password))
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? java.net.http.HttpRequest.BodyPublishers.noBody()
                    : java.net.http.HttpRequest.BodyPublishers.ofString(body));
    try (java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient()) {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
      return response.body();
    }
  }

  private static long byRun(String search) throws Exception {
    return byRun(server, PASSWORD, search);
  }

  private static Map<String, String> ipRows(String search) throws Exception {
    Map<String, String> rows = new TreeMap<>();
    for (JsonNode result : results(search)) {
      if (result.has("ip")) {
        rows.put(
            result.get("ip").asText(),
            result.get("count").asText()
                + " "
                + result.get("lo").asText()
                + " "
                + result.get("hi").asText());
      }
    }
    return rows;
  }

  private static Map<String, Long> counts(String search, String by) throws Exception {
    Map<String, Long> counted = new TreeMap<>();
    for (JsonNode result : results(search)) {
      if (result.has(by)) {
        counted.put(result.get(by).asText(), result.get("count").asLong());
      }
    }
    return counted;
  }

  private static Map<String, String> expectedIpRows() {
    Map<String, String> rows = new TreeMap<>();
    byIp.forEach((ip, row) -> rows.put(ip, row[0] + " " + row[1] + " " + row[2]));
    return rows;
  }

  private static final String REX = "rex \"from (?<ip>\\S+)\"";
  private static final String BY_IP = " | stats count, min(_time) AS lo, max(_time) AS hi by ip";

  @Test
  void rexAndTimeByRunsAsTheLinesWereMade() throws Exception {
    assertThat(ipRows("search * | " + REX + BY_IP)).isEqualTo(expectedIpRows());
  }

  @Test
  void rexAndTimeEventByEventUnderHeadAlike() throws Exception {
    assertThat(ipRows("search * | " + REX + " | head 100000" + BY_IP)).isEqualTo(expectedIpRows());
  }

  @Test
  void keyValueFieldByRunsAsTheLinesWereMade() throws Exception {
    assertThat(counts("search * | stats count by sid", "sid")).isEqualTo(bySid);
    assertThat(counts("search * | head 100000 | stats count by sid", "sid")).isEqualTo(bySid);
  }

  @Test
  void runsAreTakenExactlyWhereThePlanAllows() throws Exception {
    assertThat(byRun("search * | " + REX + BY_IP)).isPositive();
    // count(sid): a stats the key=value fused scan (KeyValueStates) does not take, on pages
    assertThat(byRun("search * | stats count(sid) by sid")).isPositive();
    assertThat(byRun("search * | " + REX + " | head 100000" + BY_IP)).isZero();
    assertThat(byRun("search * | head 100000 | stats count by sid")).isZero();
    // a later search is a page operator over the run-filled columns; the index query's is a
    // filter, whose admitted events are filled by run too (FilteredRunSearchTest for words)
    assertThat(byRun("search * | " + REX + " | search sid=* | stats count by ip")).isPositive();
    assertThat(byRun("search sid=* | " + REX + " | stats count by ip")).isPositive();
  }

  @Test
  void aFilterReadsEventByEventAlike() throws Exception {
    assertThat(counts("search * | " + REX + " | search sid=* | stats count by ip", "ip"))
        .isEqualTo(byIpWithSid);
    assertThat(counts("search sid=* | " + REX + " | stats count by ip", "ip"))
        .isEqualTo(byIpWithSid);
  }
}
