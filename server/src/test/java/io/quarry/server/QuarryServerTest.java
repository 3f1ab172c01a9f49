package io.quarry.server;

import static io.quarry.server.TestHttp.basic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.client.QuarryClient;
import io.quarry.client.QuarryClientException;
import io.quarry.client.SearchResults;
import io.quarry.server.config.HecToken;
import io.quarry.server.config.QuarryConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The first slice end to end inside one JVM: a real server on loopback, real HTTP. */
class QuarryServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "s3cret";
  private static final int MAX_REQUEST_BYTES = 2 * 1024 * 1024;

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    QuarryConfig config =
        TestServers.settings(dataDirectory, PASSWORD)
            .put("server.maxRequestBytes", (long) MAX_REQUEST_BYTES)
            .put("indexes", List.of("main", "web"))
            .put(
                "hec.tokens",
                List.of(
                    new HecToken("tok", "test", "main", List.of("main", "web"), null),
                    new HecToken("web-only", "shipper", "web", List.of("web"), null)))
            .put("storage.journalCompression", "lz4")
            // the explains below name the event layout's shortcuts (a long field counted from its
            // doc values, the dedup skip behind a term), which blocks do not take yet
            // (docs/design/block-index.md, "Next")
            .put("storage.format", "events")
            .put("storage.indexes.web.journalCompression", "zstd")
            .put("storage.indexes.web.maxAgeDays", 3650)
            .put("storage.indexes.web.fields", Map.of("status", "long"))
            .build();
    server = QuarryServer.start(config, Clock.systemUTC());
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
  }

  private HttpResponse<String> hec(String path, String token, byte[] body, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (token != null) {
      request.header("Authorization", "Splunk " + token);
    }
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> event(String body) throws Exception {
    return hec("/services/collector/event", "tok", body.getBytes(StandardCharsets.UTF_8));
  }

  private HttpResponse<String> export(String query, String... extra) throws Exception {
    boolean modeGiven = List.of(extra).contains("output_mode");
    StringBuilder form =
        new StringBuilder(
            (modeGiven ? "" : "output_mode=json&")
                + "search="
                + URLEncoder.encode(query, StandardCharsets.UTF_8));
    for (int i = 0; i < extra.length; i += 2) {
      form.append('&')
          .append(extra[i])
          .append('=')
          .append(URLEncoder.encode(extra[i + 1], StandardCharsets.UTF_8));
    }
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/services/search/jobs/export"))
            .header("Authorization", basic("admin", PASSWORD))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form.toString()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The export's result objects, checking the NDJSON framing on the way. */
  private List<Map<String, String>> results(String query, String... extra) throws Exception {
    HttpResponse<String> response = export(query, extra);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<Map<String, String>> rows = new ArrayList<>();
    String[] lines = response.body().split("\n");
    for (int i = 0; i < lines.length; i++) {
      JsonNode line = JSON.readTree(lines[i]);
      if (!line.has("result")) {
        continue;
      }
      assertThat(line.get("preview").asBoolean()).isFalse();
      assertThat(line.get("offset").asInt()).isEqualTo(rows.size());
      assertThat(line.path("lastrow").asBoolean()).isEqualTo(i == lastResultLine(lines));
      Map<String, String> row = new java.util.LinkedHashMap<>();
      // text as Splunk gives it; a multivalue (an array of texts) as its JSON
      line.get("result")
          .fields()
          .forEachRemaining(
              field ->
                  row.put(
                      field.getKey(),
                      field.getValue().isArray()
                          ? field.getValue().toString()
                          : field.getValue().asText()));
      rows.add(row);
    }
    return rows;
  }

  private static int lastResultLine(String[] lines) throws IOException {
    for (int i = lines.length - 1; i >= 0; i--) {
      if (JSON.readTree(lines[i]).has("result")) {
        return i;
      }
    }
    return -1;
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    return JSON.readTree(response.body());
  }

  @Test
  void hecEventsAreSearchableAtOnceWithStatsCountBy() throws Exception {
    HttpResponse<String> response =
        event(
            """
            {"time": 1767744000.25, "host": "web-01", "sourcetype": "app", "event": "user=alice action=login status=ok"}
            {"time": "1767744001", "host": "web-02", "sourcetype": "app", "event": "user=bob action=login status=failed"}{"host": "web-01", "sourcetype": "app", "event": {"user": "carol", "action": "logout", "status": "ok"}, "fields": {"team": ["blue", "red"]}}
            """);
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(json(response)).isEqualTo(JSON.readTree("{\"text\":\"Success\",\"code\":0}"));

    assertThat(results("sourcetype=app | stats count by host"))
        .containsExactly(
            Map.of("host", "web-01", "count", "2"), Map.of("host", "web-02", "count", "1"));
    assertThat(results("sourcetype=app | stats count by status"))
        .as("key=value and JSON fields are extracted at search time")
        .containsExactly(
            Map.of("status", "failed", "count", "1"), Map.of("status", "ok", "count", "2"));
    assertThat(results("team=red | stats count")).containsExactly(Map.of("count", "1"));
    assertThat(results("* | stats count")).containsExactly(Map.of("count", "3"));
    assertThat(results("search login NOT bob | stats dc(user) AS users"))
        .containsExactly(Map.of("users", "1"));

    List<Map<String, String>> oldest =
        results("sourcetype=app earliest=1767744000 latest=1767744001");
    assertThat(oldest).hasSize(1);
    assertThat(oldest.get(0))
        .containsEntry("_time", "2026-01-07T00:00:00.250+00:00")
        .containsEntry("_raw", "user=alice action=login status=ok")
        .containsEntry("host", "web-01")
        .containsEntry("source", "http:test")
        .containsEntry("index", "main");
    assertThat(results("sourcetype=app | head 1").get(0))
        .hasEntrySatisfying("_raw", raw -> assertThat(raw).contains("carol"))
        .as("an index-time multivalue is an array of texts, as Splunk's JSON gives it")
        .containsEntry("team", "[\"blue\",\"red\"]");
  }

  @Test
  void aBadEventStopsTheBatchButKeepsTheEventsBeforeIt() throws Exception {
    HttpResponse<String> missing =
        event(
            "{\"event\":\"keep one\"}{\"event\":\"keep two\"}{\"evnt\":\"typo\"}{\"event\":\"after\"}");
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(json(missing).get("code").asInt()).isEqualTo(12);
    assertThat(json(missing).get("invalid-event-number").asInt()).isEqualTo(2);

    HttpResponse<String> malformed = event("{\"event\":\"keep three\"} {\"event\": nope}");
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(json(malformed).get("code").asInt()).isEqualTo(6);
    assertThat(json(malformed).get("invalid-event-number").asInt()).isEqualTo(1);
    assertThat(json(malformed).get("reason").asText()).contains("malformed JSON at line 1");

    assertThat(json(event("{\"event\":\"  \"}")).get("code").asInt()).isEqualTo(13);
    assertThat(json(event("")).get("code").asInt()).isEqualTo(5);
    assertThat(json(event("{\"event\":\"x\",\"fields\":{\"host\":\"h\"}}")).get("reason").asText())
        .contains("reserved");
    assertThat(json(event("{\"event\":\"x\",\"time\":\"yesterday\"}")).get("reason").asText())
        .contains("'time' must be epoch seconds");

    // index web declares status as long: a value that is not one is rejected by number and name
    HttpResponse<String> typed =
        event(
            "{\"event\":\"keep typed\",\"index\":\"web\",\"fields\":{\"status\":\"404\"}}"
                + "{\"event\":\"bad typed\",\"index\":\"web\",\"fields\":{\"status\":\"oops\"}}");
    assertThat(typed.statusCode()).isEqualTo(400);
    assertThat(json(typed).get("code").asInt()).isEqualTo(6);
    assertThat(json(typed).get("invalid-event-number").asInt()).isEqualTo(1);
    assertThat(json(typed).get("reason").asText())
        .isEqualTo("field 'status' is declared long: 'oops' is not a long");
    assertThat(results("index=web status=404 | stats count by status"))
        .containsExactly(Map.of("status", "404", "count", "1"));

    assertThat(results("keep | stats count")).containsExactly(Map.of("count", "3"));
    assertThat(results("after OR typo | stats count")).containsExactly(Map.of("count", "0"));
  }

  @Test
  void tokensAndIndexesAreEnforced() throws Exception {
    byte[] body = "{\"event\":\"x\"}".getBytes(StandardCharsets.UTF_8);
    HttpResponse<String> none = hec("/services/collector/event", null, body);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(json(none).get("code").asInt()).isEqualTo(2);
    HttpResponse<String> wrong = hec("/services/collector/event", "nope", body);
    assertThat(wrong.statusCode()).isEqualTo(403);
    assertThat(json(wrong).get("code").asInt()).isEqualTo(4);
    HttpResponse<String> scheme =
        hec("/services/collector/event", null, body, "Authorization", "Digest abc");
    assertThat(json(scheme).get("code").asInt()).isEqualTo(3);

    HttpResponse<String> forbidden =
        hec(
            "/services/collector/event",
            "web-only",
            "{\"event\":\"x\",\"index\":\"main\"}".getBytes(StandardCharsets.UTF_8));
    assertThat(forbidden.statusCode()).isEqualTo(400);
    assertThat(json(forbidden).get("code").asInt()).isEqualTo(7);
    assertThat(json(forbidden).get("reason").asText()).contains("may not write to index 'main'");

    HttpResponse<String> basicToken =
        hec("/services/collector/event", null, body, "Authorization", basic("x", "web-only"));
    assertThat(basicToken.statusCode()).isEqualTo(200);
    assertThat(results("index=web x | stats count")).containsExactly(Map.of("count", "1"));
  }

  @Test
  void gzipBodiesAreAcceptedAndOversizedOrCorruptOnesRefusedWithJson() throws Exception {
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
      gzip.write("{\"event\":\"zipped event\"}".getBytes(StandardCharsets.UTF_8));
    }
    HttpResponse<String> zipped =
        hec(
            "/services/collector/event",
            "tok",
            compressed.toByteArray(),
            "Content-Encoding",
            "gzip");
    assertThat(zipped.statusCode()).as(zipped.body()).isEqualTo(200);
    assertThat(results("zipped | stats count")).containsExactly(Map.of("count", "1"));

    HttpResponse<String> corrupt =
        hec(
            "/services/collector/event",
            "tok",
            "not gzip at all".getBytes(StandardCharsets.UTF_8),
            "Content-Encoding",
            "gzip");
    assertThat(corrupt.statusCode()).isEqualTo(400);
    assertThat(json(corrupt).at("/error/code").asText()).isEqualTo("BAD_REQUEST");

    byte[] huge = new byte[MAX_REQUEST_BYTES + 1];
    java.util.Arrays.fill(huge, (byte) 'a');
    HttpResponse<String> tooLarge = hec("/services/collector/raw", "tok", huge);
    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(json(tooLarge).at("/error/code").asText()).isEqualTo("REQUEST_TOO_LARGE");
  }

  @Test
  void rawEndpointBreaksLinesAndTimestampsBySourcetype() throws Exception {
    byte[] accessLog;
    try (InputStream in = getClass().getResourceAsStream("/io/quarry/server/demo/access.log")) {
      accessLog = in.readAllBytes();
    }
    long firstMinute =
        new String(accessLog, StandardCharsets.UTF_8)
            .lines()
            .filter(l -> l.contains("[07/Jan/2026:00:00:"))
            .count();
    long expected404 =
        new String(accessLog, StandardCharsets.UTF_8)
            .lines()
            .filter(l -> l.contains("\" 404 "))
            .count();
    HttpResponse<String> response =
        hec(
            "/services/collector/raw?sourcetype=access_combined&index=web&host=www1",
            "tok",
            accessLog);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);

    assertThat(results("index=web | stats count")).containsExactly(Map.of("count", "5000"));
    assertThat(results("index=web status=404 | stats count"))
        .containsExactly(Map.of("count", Long.toString(expected404)));
    assertThat(results("index=web sourcetype=access_combined host=WWW1 | head 1").get(0))
        .containsEntry("_time", "2026-01-07T23:59:42.000+00:00");
    assertThat(results("index=web status>=500 clientip=128.0.0.0/8 | stats count by method").size())
        .isBetween(1, 2);
    assertThat(
            results(
                "index=web | stats count",
                "earliest_time",
                "01/07/2026:00:00:00",
                "latest_time",
                "01/07/2026:00:01:00"))
        .containsExactly(Map.of("count", Long.toString(firstMinute)));

    // the headline report: errors by client, busiest first, checked against the file itself
    Map<String, Long> errorsByClient =
        new String(accessLog, StandardCharsets.UTF_8)
            .lines()
            .filter(l -> l.matches(".*\" 5\\d\\d .*"))
            .collect(
                java.util.stream.Collectors.groupingBy(
                    l -> l.substring(0, l.indexOf(' ')), java.util.stream.Collectors.counting()));
    long busiest = errorsByClient.values().stream().mapToLong(Long::longValue).max().orElseThrow();
    List<Map<String, String>> top =
        results("index=web status>=500 | stats count by clientip | sort -count | head 3");
    assertThat(top).hasSize(3);
    assertThat(top.get(0).get("count")).isEqualTo(Long.toString(busiest));
    assertThat(errorsByClient.get(top.get(0).get("clientip"))).isEqualTo(busiest);
    assertThat(results("index=web | top limit=1 method").get(0))
        .containsEntry("method", "GET")
        .containsKeys("count", "percent");
    assertThat(results("index=web | dedup status | table status | sort status").size())
        .isEqualTo(
            new String(accessLog, StandardCharsets.UTF_8)
                .lines()
                .map(l -> l.replaceAll(".*\" (\\d{3}) .*", "$1"))
                .distinct()
                .count());
    assertThat(results("index=web | tail 1 | rename clientip AS ip | table ip, status").get(0))
        .containsOnlyKeys("ip", "status");
    long bigResponses =
        new String(accessLog, StandardCharsets.UTF_8)
            .lines()
            .map(l -> l.replaceAll(".*\" \\d{3} (\\d+|-).*", "$1"))
            .filter(b -> !b.equals("-") && Long.parseLong(b) > 4096)
            .count();
    assertThat(
            results(
                "index=web | eval kb=bytes/1024, size=if(kb > 4, \"big\", \"small\")"
                    + " | where size=\"big\" | stats count"))
        .as("eval and where run on the batch path before stats")
        .containsExactly(Map.of("count", Long.toString(bigResponses)));
    List<Map<String, String>> hourly = results("index=web | timechart span=1h count by method");
    assertThat(hourly).hasSize(24);
    long total =
        hourly.stream()
            .flatMap(r -> r.entrySet().stream())
            .filter(e -> !e.getKey().equals("_time"))
            .mapToLong(e -> Long.parseLong(e.getValue()))
            .sum();
    assertThat(total).as("timechart on the batch path counts every event once").isEqualTo(5000);
    assertThat(hourly.get(0)).containsKeys("_time", "GET", "POST");
    List<Map<String, String>> binned =
        results("index=web | bin _time span=1h | stats count by _time");
    assertThat(binned).as("bin with a span runs on the batch path too").hasSize(24);
    assertThat(binned.stream().mapToLong(r -> Long.parseLong(r.get("count"))).sum())
        .isEqualTo(5000);
    List<Map<String, String>> sized =
        results("index=web | bin bytes bins=5 | stats count by bytes");
    assertThat(sized.stream().mapToLong(r -> Long.parseLong(r.get("count"))).sum())
        .as("bins= holds every row before choosing the span")
        .isEqualTo(5000);
    assertThat(sized.size()).isBetween(1, 5);
  }

  @Test
  void everyDemoExampleAnswers() throws Exception {
    long loaded =
        io.quarry.server.demo.DemoData.loadOnce(
            server.ingest(), dataDirectory, java.time.Instant.parse("2026-01-08T00:00:00Z"));
    assertThat(loaded).isGreaterThan(5000);
    for (io.quarry.server.demo.DemoData.Example example : io.quarry.server.demo.DemoData.EXAMPLES) {
      assertThat(results(example.query())).as(example.query()).isNotEmpty();
    }
    assertThat(results("index=web | timechart span=1h count by method")).hasSize(24);
    assertThat(results("index=web status>=500 | stats count by clientip | sort -count | head 5"))
        .hasSize(5);
  }

  @Test
  void searchErrorsAreTypedAndPositioned() throws Exception {
    HttpResponse<String> unauthenticated =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(server.url() + "/services/search/jobs/export?search=x"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(unauthenticated.statusCode()).isEqualTo(401);
    assertThat(unauthenticated.headers().firstValue("WWW-Authenticate"))
        .hasValue("Basic realm=\"quarry\"");

    HttpResponse<String> unknown = export("error | stast count");
    assertThat(unknown.statusCode()).isEqualTo(400);
    JsonNode error = json(unknown).get("error");
    assertThat(error.get("code").asText()).isEqualTo("QUERY_PARSE");
    assertThat(error.get("message").asText())
        .isEqualTo("Unknown search command 'stast'. Did you mean 'stats'?");
    assertThat(error.get("column").asInt()).isEqualTo(9);
    assertThat(error.get("context").asText()).endsWith("        ^");
    assertThat(json(unknown).at("/messages/0/type").asText()).isEqualTo("FATAL");
    HttpResponse<String> badBins = export("error | bin bins=0 bytes");
    assertThat(badBins.statusCode()).isEqualTo(400);
    assertThat(json(badBins).at("/error/message").asText())
        .contains("bin bins= must be at least 1");
    assertThat(json(badBins).at("/error/column").asInt()).isEqualTo(18);

    assertThat(json(export("status=")).at("/error/expected").asText())
        .isEqualTo("a value after 'status='");
    assertThat(json(export("x", "earliest_time", "whenever")).at("/error/message").asText())
        .contains("earliest_time");
    assertThat(export("x", "output_mode", "xml").statusCode()).isEqualTo(400);

    HttpResponse<String> missingIndex = export("index=nope x");
    assertThat(missingIndex.body()).contains("index 'nope' does not exist");
    assertThat(export("index=web *xyz").body())
        .as("a leading wildcard is allowed and flagged as slow")
        .contains("'*xyz' (line 1, column 11) starts with a wildcard");
  }

  @Test
  void quarrysOwnLogIsSearchableInInternalButNotInStar() throws Exception {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
    List<Map<String, String>> found = List.of();
    while (System.nanoTime() < deadline) {
      found =
          results("index=_internal sourcetype=quarry:log listening NOT completed | stats count");
      if (!found.equals(List.of(Map.of("count", "0")))) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(found).containsExactly(Map.of("count", "1"));
    assertThat(results("index=* listening | stats count")).containsExactly(Map.of("count", "0"));

    // every search logs its costs by stage, so searches are searchable too
    event("{\"event\":\"costly one\"}{\"event\":\"costly two\"}");
    results("costly | stats count by host | sort -count");
    List<Map<String, String>> logged = List.of();
    while (System.nanoTime() < deadline && logged.isEmpty()) {
      // (the polling searches are logged too: they mention _internal, the one wanted does not)
      logged = results("index=_internal \"search completed\" costly NOT _internal");
      Thread.sleep(100);
    }
    assertThat(logged).hasSize(1);
    assertThat(logged.get(0).get("_raw"))
        .contains("events_read=2", "events_matched=2", "exact_index_query=true")
        .contains("| stats: in=2 out=1 ms=", "| sort: in=1 out=1 ms=");
  }

  @Test
  void aSearchPastItsTimeLimitStopsAndSaysSo() throws Exception {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 600; i++) {
      body.append("{\"event\":\"slow ").append(i).append("\"}");
    }
    assertThat(event(body.toString()).statusCode()).isEqualTo(200);
    // a microsecond is over before the first event is read: the answer is empty and says why
    for (String query : List.of("slow | stats count", "slow | head 700")) {
      HttpResponse<String> limited = export(query, "max_time", "0.000001");
      assertThat(limited.statusCode()).isEqualTo(200);
      assertThat(limited.body()).as(query).contains("search stopped after its time limit");
    }
    assertThat(json(export("slow", "max_time", "soon")).at("/error/code").asText())
        .isEqualTo("INVALID_PARAMETER");
    assertThat(export("slow | stats count", "max_time", "60").body())
        .doesNotContain("time limit")
        .contains("\"count\":\"600\"");
    assertThat(export("| makeresults count=1000000 | stats count", "max_time", "0.000001").body())
        .as("generated rows stop at the time limit too")
        .contains("search stopped after its time limit");
  }

  /** A search that runs for many seconds on almost no data: a thousand groups for every row. */
  private static final String SLOW_SEARCH =
      "| makeresults count=1000000 | eval g=split(\""
          + String.join(
              ",", java.util.stream.IntStream.range(0, 1000).mapToObj(i -> "v" + i).toList())
          + "\", \",\") | stats count by g";

  /** A raw HTTP/1.1 request (to write on a socket, alone or pipelined). */
  private String rawRequest(String method, String path, String form) {
    URI uri = URI.create(server.url());
    return method
        + " "
        + path
        + " HTTP/1.1\r\nHost: "
        + uri.getHost()
        + "\r\nAuthorization: "
        + basic("admin", PASSWORD)
        + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
        + form.length()
        + "\r\n\r\n"
        + form;
  }

  @Test
  void aClientThatHangsUpCancelsItsSearch() throws Exception {
    String form =
        "output_mode=json&search=" + URLEncoder.encode(SLOW_SEARCH, StandardCharsets.UTF_8);
    URI uri = URI.create(server.url());
    try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
      socket
          .getOutputStream()
          .write(
              rawRequest("POST", "/services/search/jobs/export", form)
                  .getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      Thread.sleep(500); // the search is aggregating: nothing to write yet
    }
    java.util.regex.Pattern cancelled =
        java.util.regex.Pattern.compile(
            "quarry_searches_seconds_count\\{outcome=\"cancelled\"} 1(\\.0)?\n");
    long deadline = System.nanoTime() + 10_000_000_000L;
    String metrics = "";
    while (System.nanoTime() < deadline && !cancelled.matcher(metrics).find()) {
      Thread.sleep(50);
      metrics =
          http.send(
                  HttpRequest.newBuilder(URI.create(server.url() + "/metrics")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
    }
    assertThat(metrics)
        .as("the search stopped once its client was gone, long before it would have finished")
        .containsPattern(cancelled);
  }

  @Test
  void pipelinedRequestsAreAnsweredOneAfterTheOtherInOrder() throws Exception {
    event("{\"event\":\"piped one\"}");
    String first =
        "output_mode=json&search="
            + URLEncoder.encode("piped | stats count", StandardCharsets.UTF_8);
    String second =
        "output_mode=json&search="
            + URLEncoder.encode("| makeresults count=3 | stats count", StandardCharsets.UTF_8);
    URI uri = URI.create(server.url());
    try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(20_000);
      socket
          .getOutputStream()
          .write(
              (rawRequest("POST", "/services/search/jobs/export", first)
                      + rawRequest("POST", "/services/search/jobs/export", second))
                  .getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      InputStream in = socket.getInputStream();
      StringBuilder answers = new StringBuilder();
      byte[] buffer = new byte[8192];
      while (!answers.toString().contains("\"count\":\"3\"")) {
        int read = in.read(buffer);
        if (read < 0) {
          break;
        }
        answers.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
      }
      String both = answers.toString();
      assertThat(both.indexOf("\"count\":\"1\""))
          .as("the first request's answer comes first")
          .isNotNegative()
          .isLessThan(both.indexOf("\"count\":\"3\""));
    }
  }

  @Test
  void healthMetricsAndUnknownRoutes() throws Exception {
    event("{\"event\":\"counted\"}");
    results("counted | stats count");
    HttpResponse<String> health =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/health")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(json(health).get("ready").asBoolean()).isTrue();
    HttpResponse<String> hecHealth =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/health")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(json(hecHealth).get("code").asInt()).isEqualTo(17);
    String metrics =
        http.send(
                HttpRequest.newBuilder(URI.create(server.url() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    assertThat(metrics)
        .contains("quarry_events_ingested_total{index=\"main\"} 1.0")
        .contains("quarry_searches_seconds_count{outcome=\"completed\"}")
        .contains(
            "quarry_http_requests_total{method=\"POST\",route=\"/services/collector/event\",status=\"200\"}")
        .contains("jvm_memory_used_bytes")
        .contains("jvm_compilation_time_ms_total")
        .contains("quarry_search_jobs{state=\"RUNNING\"} 0.0")
        .contains("quarry_ingest_pipelines_busy 0.0")
        .contains("quarry_ingest_queued_bytes 0.0");
    HttpResponse<String> missing =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/nope")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(json(missing).at("/error/code").asText()).isEqualTo("NOT_FOUND");
    HttpResponse<String> wrongMethod =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(wrongMethod.statusCode()).isEqualTo(405);
  }

  @Test
  void javaClientSendsAndSearches() throws Exception {
    QuarryClient client =
        QuarryClient.builder(URI.create(server.url()))
            .adminPassword(PASSWORD)
            .hecToken("tok")
            .build();
    client.sendEvents(
        List.of(
            Map.of("event", "sdk event one", "host", "a"),
            Map.of("event", "sdk event two", "host", "b")));
    client.sendRaw(
        "raw line 1\nraw line 2\n".getBytes(StandardCharsets.UTF_8), "lines", "web", null, null);
    SearchResults results = client.search("sdk | stats count by host");
    assertThat(results.fields()).containsExactly("host", "count");
    assertThat(results.rows())
        .containsExactly(Map.of("host", "a", "count", "1"), Map.of("host", "b", "count", "1"));
    assertThat(client.search("index=web raw | stats count").rows())
        .containsExactly(Map.of("count", "2"));
    JsonNode batch =
        JSON.readTree(
            client.explain(
                "index=web raw status>=500 | eval x=1 | stats count by host | sort -count",
                "-24h",
                null));
    assertThat(batch.get("indexes").toString()).isEqualTo("[\"web\"]");
    assertThat(batch.get("mode").asText()).isEqualTo("batch");
    assertThat(batch.get("map").toString())
        .isEqualTo("[\"eval x=1\",\"stats count by host (partial)\"]");
    assertThat(batch.get("reduce").toString())
        .isEqualTo("[\"stats count by host (merge)\",\"sort -count\"]");
    assertThat(batch.get("index_query").asText()).contains("_tok:raw");
    assertThat(batch.get("exact_index_query").asBoolean()).isFalse();
    assertThat(batch.get("filter").asText()).isEqualTo("raw status>=500");
    assertThat(batch.get("per_event_filter").asText()).isEqualTo("raw status>=500");
    assertThat(batch.get("earliest").isNull()).isFalse();
    // the page engine: the source reads host (stats) and nothing for eval x=1, which runs as a
    // page stage
    assertThat(batch.get("engine").asText()).isEqualTo("pages");
    assertThat(batch.get("page_source_fields").toString()).isEqualTo("[\"host\"]");
    assertThat(batch.get("page_stages").toString()).isEqualTo("[\"eval x=1\"]");
    // sort after stats runs on the aggregation's pages (so does a second aggregation, top, and
    // since session 26 a wildcard rename that can match _time: every command has a page stage
    // over an aggregation's answer)
    assertThat(batch.get("reduce_on_pages").asBoolean()).isTrue();
    assertThat(
            JSON.readTree(
                    client.explain(
                        "index=web | eval x=1 | stats count by host | top host", null, null))
                .get("reduce_on_pages")
                .asBoolean())
        .isTrue();
    assertThat(
            JSON.readTree(
                    client.explain(
                        "index=web | eval x=1 | stats count by host | rename _t* AS t*",
                        null,
                        null))
                .get("reduce_on_pages")
                .asBoolean())
        .isTrue();
    // fields, rename and a later search of comparisons are page stages too; the source reads
    // what stats and the search need under the names before the rename, and nothing that fields
    // drops (status before the rename)
    JsonNode reshaped =
        JSON.readTree(
            client.explain(
                "index=web | fields host, code | rename code AS status | search status>=500"
                    + " | stats count by host",
                null,
                null));
    assertThat(reshaped.get("engine").asText()).isEqualTo("pages");
    assertThat(reshaped.get("page_stages").size()).isEqualTo(3);
    assertThat(reshaped.get("page_source_fields").toString()).isEqualTo("[\"host\",\"code\"]");
    JsonNode counted =
        JSON.readTree(client.explain("index=web | stats count by status", null, null));
    assertThat(counted.get("engine").asText()).isEqualTo("index");
    assertThat(counted.get("counted_by_field").asText()).isEqualTo("status");
    // explain prints the plan that runs: top counts from the index too (it said rows before)
    JsonNode top = JSON.readTree(client.explain("index=web | top status", null, null));
    assertThat(top.get("engine").asText()).isEqualTo("index");
    assertThat(top.get("counted_by_field").asText()).isEqualTo("status");
    JsonNode fused =
        JSON.readTree(
            client.explain(
                "index=web | rex \"(?<ip>\\S+)\" | rex field=ip \"(?<a>\\d+)\" | stats count by a",
                null,
                null));
    assertThat(fused.get("engine").asText()).isEqualTo("pages");
    // the rex over _raw runs in the source, a rex over another field as a page stage after it
    assertThat(fused.get("in_source").size()).isEqualTo(1);
    assertThat(fused.get("page_stages").size()).isEqualTo(1);
    assertThat(fused.get("page_stages").get(0).asText()).startsWith("rex field=ip");
    // the source reads ip for it, and a (where the rex does not match, a keeps its own value)
    assertThat(fused.get("page_source_fields").toString()).isEqualTo("[\"a\",\"ip\"]");
    JsonNode ordered = JSON.readTree(client.explain("sdk | head 5", null, null));
    assertThat(ordered.get("mode").asText()).isEqualTo("time-ordered");
    assertThat(ordered.get("event_limit").asLong()).isEqualTo(5);
    assertThat(ordered.get("dedup_skips_seen").isNull()).isTrue();
    // a plain event listing shows every field an event has: pages of the events' own fields, as
    // small as the head; with the columns fixed by table: pages of just what table and where read
    assertThat(ordered.get("engine").asText()).isEqualTo("pages");
    assertThat(ordered.get("page_source").asText()).isEqualTo("events");
    assertThat(ordered.get("page_size").asInt()).isEqualTo(5);
    JsonNode tabled =
        JSON.readTree(
            client.explain(
                "sdk | eval n=len(host) | where n>1 | table _time, host, n | head 5", null, null));
    assertThat(tabled.get("engine").asText()).isEqualTo("pages");
    assertThat(tabled.get("page_source_fields").toString()).isEqualTo("[\"_time\",\"host\"]");
    assertThat(tabled.get("page_size").asInt()).isEqualTo(5);
    assertThat(
            JSON.readTree(client.explain("sdk | dedup host | table host", null, null))
                .get("dedup_skips_seen")
                .asText())
        .isEqualTo("host");
    assertThat(ordered.get("exact_index_query").asBoolean()).isTrue();
    List<io.quarry.client.IndexSummary> indexes = client.indexes();
    assertThat(indexes)
        .extracting(io.quarry.client.IndexSummary::name)
        .containsExactly("_audit", "_internal", "main", "web");
    assertThat(indexes.get(2).events()).isEqualTo(2);
    assertThat(indexes.get(3).events()).isEqualTo(2);
    assertThat(indexes.get(2).journalRawBytes()).isPositive();
    assertThat(indexes.get(2).buckets()).isEqualTo(1);
    assertThat(indexes.get(2).bytesByKind())
        .containsOnlyKeys(
            "docValues", "journal", "other", "points", "postings", "termFilters", "terms");
    assertThat(indexes.get(2).bytesByKind().get("journal")).isPositive();
    assertThatThrownBy(() -> client.search("x | nope"))
        .isInstanceOf(QuarryClientException.class)
        .hasMessageContaining("QUERY_PARSE: Unknown search command 'nope'");
  }
}
