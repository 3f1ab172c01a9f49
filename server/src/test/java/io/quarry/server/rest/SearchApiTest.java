package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.search.SearchControl;
import io.quarry.server.search.SearchStats;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search API (streaming search, jobs; native and Splunk's) against a real server with real
 * data.
 */
class SearchApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int EVENTS = 3000;

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();
  private String auth;

  @BeforeEach
  void start() throws Exception {
    // the event layout: the costs asserted below (segments the term index skips, events read
    // equal to the progress count) are its own; blocks differ (docs/design/block-index.md)
    server =
        TestServers.start(
            dataDirectory, "pw", settings -> settings.put("storage.format", "events"));
    auth =
        "Basic " + Base64.getEncoder().encodeToString("admin:pw".getBytes(StandardCharsets.UTF_8));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < EVENTS; i++) {
      lines
          .append("2026-01-01 00:00:")
          .append(String.format("%02d", i % 60))
          .append(" request id=")
          .append(i)
          .append(" status=")
          .append(i % 3 == 0 ? "500" : "200")
          .append('\n');
    }
    TestServers.loadRaw(server, lines.toString());
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private HttpResponse<String> call(String method, String path, String body, String contentType)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path)).header("Authorization", auth);
    if (body != null) {
      request.header("Content-Type", contentType);
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode ok(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  private JsonNode createJob(String json) throws Exception {
    return ok(call("POST", "/api/v1/jobs", json, "application/json"), 201);
  }

  private JsonNode awaitDone(String id) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (true) {
      JsonNode status = ok(call("GET", "/api/v1/jobs/" + id, null, null), 200);
      if (!status.get("state").asText().equals("RUNNING")
          && !status.get("state").asText().equals("QUEUED")) {
        return status;
      }
      assertThat(System.nanoTime()).as("job %s still running", id).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static String form(String... pairs) {
    StringBuilder form = new StringBuilder();
    for (int i = 0; i < pairs.length; i += 2) {
      form.append(form.isEmpty() ? "" : "&")
          .append(pairs[i])
          .append('=')
          .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
    }
    return form.toString();
  }

  private HttpResponse<String> streamed(String accept, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
            .header("Authorization", auth)
            .header("Accept", accept)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aStreamedSearchAnswersInTheFormatAskedFor() throws Exception {
    String query = "{\"query\": \"index=main | stats count by status | sort status\"}";
    HttpResponse<String> json = streamed("application/json", query);
    assertThat(json.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
    com.fasterxml.jackson.databind.node.ObjectNode answer =
        (com.fasterxml.jackson.databind.node.ObjectNode) ok(json, 200);
    // the search's costs end the JSON answer: its CPU, elapsed time, events and rows
    com.fasterxml.jackson.databind.JsonNode costs = answer.remove("costs");
    assertThat(costs).as(json.body()).isNotNull();
    assertThat(costs.path("cpuMs").isNumber()).as(json.body()).isTrue();
    assertThat(costs.path("cpuMs").asDouble()).as(json.body()).isPositive();
    assertThat(costs.path("elapsedMs").isIntegralNumber()).as(json.body()).isTrue();
    assertThat(costs.path("eventsRead").asLong()).as(json.body()).isGreaterThanOrEqualTo(3000);
    assertThat(costs.path("eventsMatched").asLong()).as(json.body()).isGreaterThanOrEqualTo(3000);
    assertThat(costs.path("rows").asLong()).as(json.body()).isEqualTo(2);
    assertThat(answer.toString())
        .isEqualTo(
            "{\"pages\":[{\"fields\":[{\"name\":\"status\",\"type\":\"string\"},"
                + "{\"name\":\"count\",\"type\":\"long\"}],"
                + "\"rows\":[[\"200\",2000],[\"500\",1000]]}],\"messages\":[]}");

    HttpResponse<String> ndjson = streamed("application/x-ndjson", query);
    assertThat(ndjson.body().split("\n"))
        .containsExactly(
            "{\"status\":\"200\",\"count\":2000}", "{\"status\":\"500\",\"count\":1000}");

    HttpResponse<String> csv = streamed("text/csv, */*;q=0.1", query);
    assertThat(csv.body()).isEqualTo("status,count\r\n200,2000\r\n500,1000\r\n");

    HttpResponse<String> quoted =
        streamed(
            "text/csv",
            "{\"query\": \"index=main | head 1 | eval note=\\\"a,\\\\\\\"b\\\\\\\"\\\" | table note\"}");
    assertThat(quoted.body()).isEqualTo("note\r\n\"a,\"\"b\"\"\"\r\n");

    HttpResponse<String> events =
        streamed("application/json", "{\"query\": \"index=main | head 1500\"}");
    JsonNode pages = ok(events, 200).get("pages");
    assertThat(pages.size()).isGreaterThan(1); // one page per 1,024 rows, streamed as they fill
    int rows = 0;
    for (JsonNode page : pages) {
      rows += page.get("rows").size();
    }
    assertThat(rows).isEqualTo(1500);

    assertThat(streamed("application/xml", query).statusCode()).isEqualTo(406);
    JsonNode parse = ok(streamed("application/json", "{\"query\": \"| stast\"}"), 400);
    assertThat(parse.at("/error/code").asText()).isEqualTo("QUERY_PARSE");
  }

  @Test
  void aFieldsSummaryIncludesSearchTimeFields() throws Exception {
    JsonNode summary =
        ok(
            call(
                "POST",
                "/api/v1/fields",
                "{\"query\": \"index=main\", \"maxEvents\": 1000, \"maxValues\": 3}",
                "application/json"),
            200);
    assertThat(summary.get("eventsSummarized").asLong()).isEqualTo(1000);
    JsonNode status = null;
    JsonNode id = null;
    for (JsonNode field : summary.get("fields")) {
      if (field.get("name").asText().equals("status")) {
        status = field;
      }
      if (field.get("name").asText().equals("id")) {
        id = field;
      }
    }
    assertThat(status).as("key=value field extracted at search time").isNotNull();
    assertThat(status.get("count").asLong()).isEqualTo(1000);
    assertThat(status.get("distinctCount").asLong()).isEqualTo(2);
    assertThat(status.get("type").asText()).isEqualTo("number");
    assertThat(status.at("/topValues/0/value").asText()).isEqualTo("200");
    assertThat(id.get("distinctCount").asLong()).isEqualTo(1000);
    assertThat(id.get("topValues")).hasSize(3);
    assertThat(summary.get("fields").findValuesAsText("name")).contains("_time", "host", "source");
  }

  @Test
  void lookupTablesAreUploadedAndEnrichSearches() throws Exception {
    String csv =
        "status,meaning,class\r\n200,OK,success\r\n500,\"Internal, server error\",failure\r\n";
    JsonNode stored = ok(call("PUT", "/api/v1/lookups/http_status.csv", csv, "text/csv"), 200);
    assertThat(stored.get("rows").asInt()).isEqualTo(2);
    assertThat(stored.get("columns").toString()).isEqualTo("[\"status\",\"meaning\",\"class\"]");
    assertThat(ok(call("GET", "/api/v1/lookups", null, null), 200).at("/lookups/0/name").asText())
        .isEqualTo("http_status.csv");
    assertThat(call("GET", "/api/v1/lookups/http_status.csv", null, null).body()).isEqualTo(csv);

    HttpResponse<String> enriched =
        streamed(
            "text/csv",
            "{\"query\": \"index=main | stats count by status | lookup http_status.csv status OUTPUT meaning | sort status\"}");
    assertThat(enriched.body())
        .isEqualTo(
            "status,count,meaning\r\n200,2000,OK\r\n500,1000,\"Internal, server error\"\r\n");

    HttpResponse<String> generated =
        streamed(
            "text/csv",
            "{\"query\": \"| inputlookup http_status.csv | where class=\\\"failure\\\" | table status, meaning\"}");
    assertThat(generated.body()).isEqualTo("status,meaning\r\n500,\"Internal, server error\"\r\n");
    HttpResponse<String> written =
        streamed(
            "text/csv",
            "{\"query\": \"index=main | stats count by status | outputlookup status_counts.csv\"}");
    assertThat(written.statusCode()).isEqualTo(200);
    assertThat(call("GET", "/api/v1/lookups/status_counts.csv", null, null).body())
        .isEqualTo("status,count\r\n200,2000\r\n500,1000\r\n");
    JsonNode missingInput =
        ok(streamed("application/json", "{\"query\": \"| inputlookup nope.csv\"}"), 400);
    assertThat(missingInput.at("/error/message").asText()).contains("'nope.csv' does not exist");

    JsonNode missing =
        ok(
            streamed("application/json", "{\"query\": \"index=main | lookup nope.csv status\"}"),
            400);
    assertThat(missing.at("/error/code").asText()).isEqualTo("QUERY_PARSE");
    assertThat(missing.at("/error/message").asText())
        .contains("lookup table 'nope.csv' does not exist");
    JsonNode ragged = ok(call("PUT", "/api/v1/lookups/bad.csv", "a,b\n1,2,3\n", "text/csv"), 400);
    assertThat(ragged.at("/error/code").asText()).isEqualTo("INVALID_CSV");
    assertThat(ragged.at("/error/message").asText())
        .contains("row 1 has 3 cells; the header has 2");
    assertThat(
            ok(call("PUT", "/api/v1/lookups/..hidden", csv, "text/csv"), 400)
                .at("/error/code")
                .asText())
        .isEqualTo("INVALID_LOOKUP_NAME");
    ok(call("DELETE", "/api/v1/lookups/http_status.csv", null, null), 200);
    ok(call("GET", "/api/v1/lookups/http_status.csv", null, null), 404);
  }

  @Test
  void badBodiesAreTyped400s() throws Exception {
    for (String path : List.of("/api/v1/search", "/api/v1/jobs", "/api/v1/fields")) {
      JsonNode notJson = ok(call("POST", path, "{not json", "application/json"), 400);
      assertThat(notJson.at("/error/code").asText()).as(path).isEqualTo("INVALID_BODY");
      JsonNode notObject = ok(call("POST", path, "[1, 2]", "application/json"), 400);
      assertThat(notObject.at("/error/code").asText()).as(path).isEqualTo("INVALID_BODY");
      JsonNode noQuery = ok(call("POST", path, "{}", "application/json"), 400);
      assertThat(noQuery.at("/error/code").asText()).as(path).isEqualTo("MISSING_PARAMETER");
      JsonNode badQuery =
          ok(call("POST", path, "{\"query\": {\"x\": 1}}", "application/json"), 400);
      assertThat(badQuery.at("/error/code").asText()).as(path).isEqualTo("INVALID_PARAMETER");
    }
    JsonNode badTimeout =
        ok(
            call("POST", "/api/v1/jobs", "{\"query\": \"x\", \"timeout\": -1}", "application/json"),
            400);
    assertThat(badTimeout.at("/error/message").asText()).contains("positive number of seconds");
  }

  @Test
  void sourcetypesAreListedWithTheirRules() throws Exception {
    JsonNode list = ok(call("GET", "/api/v1/sourcetypes", null, null), 200).get("sourcetypes");
    JsonNode access = null;
    for (JsonNode sourcetype : list) {
      if (sourcetype.get("name").asText().equals("access_combined")) {
        access = sourcetype;
      }
    }
    assertThat(access).isNotNull();
    assertThat(access.get("timeFormat").asText()).isEqualTo("%d/%b/%Y:%H:%M:%S %z");
    assertThat(access.get("lineBreaker").asText()).isEqualTo("line ends");
    assertThat(access.get("kvMode").asText()).isEqualTo("auto");
    assertThat(list.findValuesAsText("name")).contains("log4j", "syslog", "hdfs", "_json", "stash");
    for (JsonNode sourcetype : list) {
      String expected =
          switch (sourcetype.get("name").asText()) {
            case "stash" -> "auto_escaped";
            case "audittrail" -> "none";
            case "_json" -> "json";
            default -> "auto";
          };
      assertThat(sourcetype.get("kvMode").asText()).as(sourcetype.toString()).isEqualTo(expected);
    }
  }

  @Test
  void anAsyncJobRunsAndAnswersTypedResultsAndItsCosts() throws Exception {
    JsonNode created =
        createJob("{\"query\": \"index=main | stats count by status | sort status\"}");
    String id = created.get("id").asText();
    JsonNode status = awaitDone(id);
    assertThat(status.get("state").asText()).isEqualTo("DONE");
    assertThat(status.get("eventsRead").asLong()).isEqualTo(EVENTS);
    assertThat(status.get("rows").asLong()).isEqualTo(2);

    JsonNode results = ok(call("GET", "/api/v1/jobs/" + id + "/results", null, null), 200);
    assertThat(results.get("preview").asBoolean()).isFalse();
    assertThat(results.get("fields").toString())
        .isEqualTo(
            "[{\"name\":\"status\",\"type\":\"string\"},{\"name\":\"count\",\"type\":\"long\"}]");
    assertThat(results.get("rows").toString()).isEqualTo("[[\"200\",2000],[\"500\",1000]]");

    JsonNode inspect = ok(call("GET", "/api/v1/jobs/" + id + "/inspect", null, null), 200);
    assertThat(inspect.at("/costs/eventsRead").asLong()).isEqualTo(EVENTS);
    assertThat(inspect.at("/costs/stages/0/command").asText()).isEqualTo("stats");
    assertThat(inspect.at("/costs/stages/0/rowsIn").asLong()).isEqualTo(EVENTS);
    assertThat(inspect.get("plan").has("mode")).isTrue();
    // status is a search-time field here: every event's _raw is decoded and key=value extracted
    assertThat(inspect.at("/costs/scan/journalBlocks").asLong()).isPositive();
    assertThat(inspect.at("/costs/scan/journalBytes").asLong()).isGreaterThan(EVENTS * 30L);
    assertThat(inspect.at("/costs/scan/journalDecodeMs").asDouble()).isPositive();
    assertThat(inspect.at("/costs/scan/fieldExtractionMs").asDouble()).isPositive();
    assertThat(inspect.at("/costs/scan/indexLookupMs").isNumber()).isTrue();
    assertThat(inspect.at("/costs/segmentsSkipped").asInt()).isZero();
    assertThat(inspect.at("/costs/stages/0/ms").asDouble())
        .as("stats' own time, to the microsecond")
        .isPositive();

    String chained =
        createJob("{\"query\": \"index=main | eval s=status * 2 | stats count by s\"}")
            .get("id")
            .asText();
    awaitDone(chained);
    JsonNode pages = ok(call("GET", "/api/v1/jobs/" + chained + "/inspect", null, null), 200);
    assertThat(pages.at("/costs/stages/0/command").asText()).startsWith("eval");
    assertThat(pages.at("/costs/stages/0/rowsIn").asLong()).isEqualTo(EVENTS);
    assertThat(pages.at("/costs/stages/0/ms").asDouble())
        .as("an eval on pages has a time of its own, not 0")
        .isPositive();
    // the pulled slice's driver counts the stats after it as before: every event in
    assertThat(pages.at("/costs/stages/1/command").asText()).startsWith("stats");
    assertThat(pages.at("/costs/stages/1/rowsIn").asLong()).isEqualTo(EVENTS);

    String missing =
        createJob("{\"query\": \"index=main nosuchterm | stats count\"}").get("id").asText();
    awaitDone(missing);
    JsonNode none = ok(call("GET", "/api/v1/jobs/" + missing + "/inspect", null, null), 200);
    assertThat(none.at("/costs/segments").asInt()).isPositive();
    assertThat(none.at("/costs/segmentsSkipped").asInt())
        .as("the term index leaves every segment without a candidate")
        .isEqualTo(none.at("/costs/segments").asInt());
    assertThat(none.at("/costs/scan/journalBlocks").asLong()).isZero();

    JsonNode list = ok(call("GET", "/api/v1/jobs", null, null), 200);
    assertThat(list.get("jobs").findValuesAsText("id")).contains(id);
  }

  @Test
  void addinfoAnswersTheJobsIdAndTimeRange() throws Exception {
    JsonNode created =
        createJob(
            "{\"query\": \"index=main earliest=1767657600 latest=1767690000 | stats count"
                + " | addinfo | table info_sid, info_min_time, info_max_time\"}");
    String id = created.get("id").asText();
    assertThat(awaitDone(id).get("state").asText()).isEqualTo("DONE");
    JsonNode rows = ok(call("GET", "/api/v1/jobs/" + id + "/results", null, null), 200).get("rows");
    assertThat(rows.get(0).get(0).asText()).isEqualTo(id);
    assertThat(rows.get(0).get(1).asDouble()).isEqualTo(1767657600d);
    assertThat(rows.get(0).get(2).asDouble()).isEqualTo(1767690000d);
  }

  @Test
  void resultsPageByOffsetAndCount() throws Exception {
    JsonNode job =
        createJob("{\"query\": \"index=main | head 250 | table id\", \"mode\": \"blocking\"}");
    assertThat(job.get("state").asText()).isEqualTo("DONE");
    String id = job.get("id").asText();
    JsonNode page =
        ok(call("GET", "/api/v1/jobs/" + id + "/results?offset=200&count=100", null, null), 200);
    assertThat(page.get("total").asLong()).isEqualTo(250);
    assertThat(page.get("rows")).hasSize(50);
    JsonNode bad = ok(call("GET", "/api/v1/jobs/" + id + "/results?count=-1", null, null), 400);
    assertThat(bad.at("/error/code").asText()).isEqualTo("INVALID_PARAMETER");
  }

  @Test
  void errorsAreTypedAndJobsExpireAfterTheirTtl() throws Exception {
    JsonNode parse =
        ok(
            call(
                "POST",
                "/api/v1/jobs",
                "{\"query\": \"index=main | nosuchcommand\"}",
                "application/json"),
            400);
    assertThat(parse.at("/error/code").asText()).isEqualTo("QUERY_PARSE");
    JsonNode missing = ok(call("GET", "/api/v1/jobs/no-such-job", null, null), 404);
    assertThat(missing.at("/error/code").asText()).isEqualTo("JOB_NOT_FOUND");
    HttpResponse<String> anonymous =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/jobs")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);

    JsonNode shortLived =
        createJob("{\"query\": \"index=main | stats count\", \"mode\": \"blocking\", \"ttl\": 1}");
    String id = shortLived.get("id").asText();
    assertThat(shortLived.get("ttlSeconds").asLong()).isEqualTo(1);
    Thread.sleep(1100);
    JsonNode list = ok(call("GET", "/api/v1/jobs", null, null), 200);
    assertThat(list.get("jobs").findValuesAsText("id")).doesNotContain(id);
  }

  @Test
  void aFinalizedSearchStopsReadingAndSaysSo() throws Exception {
    SearchControl control = new SearchControl();
    control.finalizeSearch();
    List<Page> pages = new ArrayList<>();
    SearchStats stats =
        server
            .search()
            .run(
                "index=main | stats count",
                server.search().plan("index=main | stats count", null, null),
                Duration.ofMinutes(1),
                control,
                pages::add);
    assertThat(stats.eventsRead()).isLessThan(EVENTS);
    assertThat(stats.messages()).anyMatch(m -> m.contains("finalized"));
    assertThat(control.eventsRead()).isEqualTo(stats.eventsRead());
  }

  @Test
  void theJavaClientSubmitsPollsPagesAndDeletesJobs() throws Exception {
    io.quarry.client.QuarryClient client =
        io.quarry.client.QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
    io.quarry.client.SearchJob job =
        client.submit("index=main | stats count by status", null, null);
    io.quarry.client.JobStatus status = job.await(Duration.ofSeconds(30));
    assertThat(status.state()).isEqualTo("DONE");
    assertThat(status.eventsRead()).isEqualTo(EVENTS);
    io.quarry.client.TypedResults results = job.results(0, 10);
    assertThat(results.columns())
        .containsExactly(
            new io.quarry.client.TypedResults.Column("status", "string"),
            new io.quarry.client.TypedResults.Column("count", "long"));
    long total = 0;
    for (List<Object> row : results.rows()) {
      total += ((Number) row.get(results.column("count"))).longValue();
    }
    assertThat(total).isEqualTo(EVENTS);
    assertThat(job.inspect()).contains("\"eventsRead\" : " + EVENTS);

    try (io.quarry.client.ResultStream pages =
        client.stream("index=main | head 2500 | table id, status", null, null)) {
      List<Integer> sizes = new ArrayList<>();
      while (pages.hasNext()) {
        io.quarry.client.TypedResults page = pages.next();
        assertThat(page.columns()).extracting(c -> c.name()).containsExactly("id", "status");
        sizes.add(page.rows().size());
      }
      assertThat(sizes).containsExactly(1024, 1024, 452);
      assertThat(pages.messages()).isEmpty();
      io.quarry.client.SearchCosts costs = pages.costs().orElseThrow();
      assertThat(costs.rows()).isEqualTo(2500);
      assertThat(costs.eventsRead()).isGreaterThanOrEqualTo(2500);
      assertThat(costs.cpuMs()).isPositive();
      assertThat(costs.elapsedMs()).isNotNegative();
    }
    try (io.quarry.client.ResultStream early = client.stream("index=main", null, null)) {
      assertThat(early.next().rows()).hasSize(1024); // then close: the server cancels the search
    }
    assertThat(client.searchAsync("index=main | stats count", null, null).get().rows())
        .containsExactly(java.util.Map.of("count", Integer.toString(EVENTS)));

    job.delete();
    assertThatThrownBy(job::status)
        .isInstanceOf(io.quarry.client.QuarryClientException.class)
        .hasMessageContaining("JOB_NOT_FOUND");
  }

  @Test
  void theJavaClientsArrowStreamEqualsItsJsonStream() throws Exception {
    io.quarry.client.QuarryClient client =
        io.quarry.client.QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
    for (String query :
        List.of(
            "index=main | head 2500 | eval slow=id>100, ratio=id/7 | table _time, id, status,"
                + " slow, ratio, nothing",
            "index=main | stats count, avg(id) AS mean by status | sort status")) {
      List<io.quarry.client.TypedResults> json = new ArrayList<>();
      List<io.quarry.client.TypedResults> arrow = new ArrayList<>();
      client.stream(query, null, null).forEachRemaining(json::add);
      client.stream(query, null, null, io.quarry.client.QuarryClient.StreamFormat.ARROW)
          .forEachRemaining(arrow::add);
      assertThat(arrow).hasSameSizeAs(json);
      for (int i = 0; i < json.size(); i++) {
        assertThat(arrow.get(i).columns()).as(query).isEqualTo(json.get(i).columns());
        assertThat(arrow.get(i).rows()).as(query).isEqualTo(json.get(i).rows());
        assertThat(arrow.get(i).offset()).isEqualTo(json.get(i).offset());
      }
    }
    try (io.quarry.client.ResultStream early =
        client.stream("index=main", null, null, io.quarry.client.QuarryClient.StreamFormat.ARROW)) {
      assertThat(early.next().rows()).hasSize(1024); // then close: the server cancels the search
    }
  }

  @Test
  void splunkEndpointsAnswerErrorsAndEventsAsSplunkDoes() throws Exception {
    // errors: Splunk's XML messages by default, its JSON messages with output_mode=json
    HttpResponse<String> xml = call("GET", "/services/search/jobs/nope", null, null);
    assertThat(xml.statusCode()).isEqualTo(404);
    assertThat(xml.headers().firstValue("Content-Type").orElseThrow()).contains("xml");
    assertThat(xml.body()).contains("<response><messages><msg type=\"ERROR\">No search job 'nope'");
    HttpResponse<String> parse =
        call(
            "POST",
            "/services/search/jobs",
            form("search", "index=main | stast count"),
            "application/x-www-form-urlencoded");
    assertThat(parse.statusCode()).isEqualTo(400);
    assertThat(parse.body())
        .contains("<msg type=\"FATAL\">Error in search: Unknown search command 'stast'");
    HttpResponse<String> json =
        call("GET", "/services/search/jobs/nope?output_mode=json", null, null);
    assertThat(json.statusCode()).isEqualTo(404);
    JsonNode body = JSON.readTree(json.body());
    assertThat(body.at("/messages/0/type").asText()).isEqualTo("ERROR");
    assertThat(body.at("/error/code").asText()).isEqualTo("JOB_NOT_FOUND");
    // the export endpoint answers JSON without an output_mode, its errors too
    HttpResponse<String> export =
        call(
            "POST",
            "/services/search/jobs/export",
            form("search", "index=main | stast"),
            "application/x-www-form-urlencoded");
    assertThat(JSON.readTree(export.body()).at("/error/code").asText()).isEqualTo("QUERY_PARSE");

    // events: the events of an event search; none for a transforming one (only its results)
    for (String query : List.of("index=main | head 3", "index=main | stats count by status")) {
      String id = blockingSplunkJob(query);
      JsonNode events =
          ok(
              call("GET", "/services/search/jobs/" + id + "/events?output_mode=json", null, null),
              200);
      JsonNode results =
          ok(
              call("GET", "/services/search/jobs/" + id + "/results?output_mode=json", null, null),
              200);
      if (query.contains("stats")) {
        assertThat(events.get("results")).isEmpty();
        assertThat(events.get("messages").toString()).contains("transforms its events");
        assertThat(results.get("results")).hasSize(2);
        assertThat(call("GET", "/services/search/jobs/" + id + "/events", null, null).body())
            .contains("<results preview=\"0\">")
            .contains("transforms its events");
      } else {
        assertThat(events.get("results")).hasSize(3).isEqualTo(results.get("results"));
      }
    }
  }

  /** Runs a search as a blocking job of Splunk's API; returns its sid. */
  private String blockingSplunkJob(String query) throws Exception {
    return ok(
            call(
                "POST",
                "/services/search/jobs",
                form("search", query, "exec_mode", "blocking", "output_mode", "json"),
                "application/x-www-form-urlencoded"),
            201)
        .get("sid")
        .asText();
  }

  @Test
  void splunksJobEndpointsServeTheSameJobs() throws Exception {
    String query = "search index=main status=500 | stats count";
    String id = blockingSplunkJob(query);
    JsonNode entry =
        ok(call("GET", "/services/search/jobs/" + id + "?output_mode=json", null, null), 200)
            .at("/entry/0");
    assertThat(entry.at("/content/isDone").asBoolean()).isTrue();
    assertThat(entry.at("/content/dispatchState").asText()).isEqualTo("DONE");
    assertThat(entry.at("/content/resultCount").asLong()).isEqualTo(1);
    assertThat(entry.at("/content/eventCount").asLong()).isEqualTo(1000);
    assertThat(entry.at("/acl/owner").asText()).isEqualTo("admin");

    JsonNode results =
        ok(
            call(
                "GET",
                "/servicesNS/admin/search/search/jobs/" + id + "/results?output_mode=json",
                null,
                null),
            200);
    assertThat(results.get("results").toString()).isEqualTo("[{\"count\":\"1000\"}]");
    JsonNode v2 =
        ok(
            call(
                "POST",
                "/services/search/v2/jobs/" + id + "/results",
                form("output_mode", "json", "count", "0"),
                "application/x-www-form-urlencoded"),
            200);
    assertThat(v2.get("fields").toString()).isEqualTo("[{\"name\":\"count\"}]");

    JsonNode native_ = ok(call("GET", "/api/v1/jobs/" + id + "/results", null, null), 200);
    assertThat(native_.get("rows").toString()).isEqualTo("[[1000]]");

    JsonNode control =
        ok(
            call(
                "POST",
                "/services/search/jobs/" + id + "/control",
                form("action", "finalize", "output_mode", "json"),
                "application/x-www-form-urlencoded"),
            200);
    assertThat(control.at("/messages/0/text").asText()).isEqualTo("Search job finalized.");

    JsonNode oneshot =
        ok(
            call(
                "POST",
                "/services/search/jobs",
                form(
                    "search", "search index=main | head 3 | table id",
                    "exec_mode", "oneshot",
                    "output_mode", "json"),
                "application/x-www-form-urlencoded"),
            200);
    assertThat(oneshot.get("results")).hasSize(3);

    HttpResponse<String> xml = call("GET", "/services/search/jobs/" + id, null, null);
    assertThat(xml.statusCode()).isEqualTo(200);
    assertThat(xml.body())
        .startsWith("<?xml")
        .contains("<s:key name=\"isDone\">1</s:key>")
        .contains("<s:key name=\"resultCount\">1</s:key>");
    HttpResponse<String> xmlResults =
        call("GET", "/services/search/jobs/" + id + "/results", null, null);
    assertThat(xmlResults.statusCode()).isEqualTo(200);
    assertThat(xmlResults.body())
        .contains("<fieldOrder><field>count</field></fieldOrder>")
        .contains(
            "<result offset=\"0\"><field k=\"count\"><value><text>1000</text></value></field></result>");
    HttpResponse<String> csvResults =
        call("GET", "/services/search/jobs/" + id + "/results?output_mode=csv", null, null);
    assertThat(csvResults.body()).isEqualTo("count\r\n1000\r\n");
    JsonNode rows =
        ok(
            call(
                "GET",
                "/services/search/jobs/" + id + "/results?output_mode=json_rows",
                null,
                null),
            200);
    assertThat(rows.get("fields").toString()).isEqualTo("[\"count\"]");
    assertThat(rows.get("rows").toString()).isEqualTo("[[\"1000\"]]");
    JsonNode cols =
        ok(
            call(
                "GET",
                "/services/search/jobs/" + id + "/results?output_mode=json_cols",
                null,
                null),
            200);
    assertThat(cols.get("columns").toString()).isEqualTo("[[\"1000\"]]");
    JsonNode oneshotRows =
        ok(
            call(
                "POST",
                "/services/search/jobs",
                form(
                    "search", "search index=main | head 3 | table id, missing",
                    "exec_mode", "oneshot",
                    "output_mode", "json_rows"),
                "application/x-www-form-urlencoded"),
            200);
    assertThat(oneshotRows.get("rows")).hasSize(3);
    assertThat(oneshotRows.get("rows").get(0)).hasSize(oneshotRows.get("fields").size());
    HttpResponse<String> badMode =
        call("GET", "/services/search/jobs/" + id + "/results?output_mode=raw", null, null);
    assertThat(badMode.statusCode()).isEqualTo(400);
    assertThat(badMode.body()).contains("<msg type=\"ERROR\">output_mode 'raw'");
    ok(call("DELETE", "/services/search/jobs/" + id + "?output_mode=json", null, null), 200);
    ok(call("GET", "/api/v1/jobs/" + id, null, null), 404);
  }
}
