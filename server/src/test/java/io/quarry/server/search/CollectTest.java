package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.RunningServer;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code collect} over a real server: results written into a summary index through the ingest path
 * and searched back, in Splunk's stash format ({@code _time} first, {@code key="value"} pairs, the
 * marker last), {@code _raw} kept, {@code testmode}, {@code addtime}, the count in the job's
 * statistics, and the write right ({@code run_collect} and the role's indexes) refused with a typed
 * error naming the index, as is an index that does not exist.
 */
class CollectTest {
  private static final String ADMIN = CollectServers.ADMIN;
  private static final String BOB = TestHttp.basic("bob", "bob-pw");
  private static final String CAROL = TestHttp.basic("carol", "carol-pw");

  @RegisterExtension
  static final RunningServer SERVER =
      CollectServers.running(
          CollectServers.config()
              .user("bob")
              .user("carol", "summarizer")
              .role(
                  "summarizer",
                  "{srchIndexesAllowed: [main, summary], capabilities: [run_collect]}"));

  private final TestHttp http = SERVER.http();

  @Test
  void statsCollectedIntoASummaryAreSearchedBack() throws Exception {
    ArrayNode passed =
        http.export(
            ADMIN,
            "index=main | stats count by status"
                + " | collect index=summary marker=\"report=daily\" addinfo=f");
    // the results pass on unchanged
    assertThat(rows(passed, "status", "count")).containsExactly("200 2", "500 1");

    ArrayNode raws = http.export(ADMIN, "index=summary report=daily | sort status | table _raw");
    assertThat(raws).hasSize(2);
    for (JsonNode row : raws) {
      assertThat(row.path("_raw").asText())
          .matches(
              "\\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d:\\d\\d \\+0000, status=\"\\d+\", count=\"\\d\","
                  + " report=daily");
    }
    assertThat(raws.get(0).path("_raw").asText())
        .endsWith(", status=\"200\", count=\"2\", report=daily");
    ArrayNode summed =
        http.export(
            ADMIN,
            "index=summary report=daily sourcetype=stash source=collect"
                + " | stats sum(count) as total by status");
    assertThat(rows(summed, "status", "total")).containsExactly("200 2", "500 1");
  }

  @Test
  void eventsKeepTheirRawTextAndTime() throws Exception {
    http.export(ADMIN, "index=main status=500 | collect index=summary marker=\"run=raw\"");
    ArrayNode original = http.export(ADMIN, "index=main status=500 | eval t=_time | table t");
    ArrayNode copied =
        http.export(ADMIN, "index=summary run=raw | eval t=_time | table _raw, t, host");
    assertThat(copied).hasSize(1);
    assertThat(copied.get(0).path("_raw").asText()).isEqualTo("status=500 path=/a, run=raw");
    assertThat(copied.get(0).path("t").asText()).isEqualTo(original.get(0).path("t").asText());
  }

  @Test
  void addtimeWritesTheResultsTimeFirst() throws Exception {
    http.export(
        ADMIN,
        "| makeresults | eval _time=1700000000, n=1"
            + " | collect index=summary addinfo=f marker=\"run=addtime\"");
    http.export(
        ADMIN,
        "| makeresults | eval _time=1700000000, n=2"
            + " | collect index=summary addinfo=f addtime=f marker=\"run=notime\"");
    ArrayNode timed =
        http.export(ADMIN, "index=summary run=addtime | eval t=_time | table _raw, t");
    assertThat(timed.get(0).path("_raw").asText())
        .isEqualTo("11/14/2023 22:13:20 +0000, n=\"1\", run=addtime");
    assertThat(timed.get(0).path("t").asText()).isEqualTo("1700000000");
    ArrayNode untimed = http.export(ADMIN, "index=summary run=notime | table _raw");
    assertThat(untimed.get(0).path("_raw").asText()).isEqualTo("n=\"2\", run=notime");
  }

  @Test
  void addinfoWritesTheSearchsTimeRange() throws Exception {
    http.export(
        ADMIN,
        "| makeresults | eval n=3 | collect index=summary marker=\"run=info\"",
        "&earliest_time=1600000000&latest_time=1800000000");
    ArrayNode rows =
        http.export(ADMIN, "index=summary run=info | table info_min_time, info_max_time, n");
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).path("info_min_time").asText()).isEqualTo("1600000000");
    assertThat(rows.get(0).path("info_max_time").asText()).isEqualTo("1800000000");
    assertThat(rows.get(0).path("n").asText()).isEqualTo("3");
  }

  @Test
  void multivaluesAreOnePairPerValueAndQuotesAreEscaped() throws Exception {
    http.export(
        ADMIN,
        "| makeresults | eval msg=\"say \\\"hi\\\"\", tags=split(\"a,b\", \",\")"
            + " | collect index=summary addinfo=f addtime=f marker=\"run=escape\"");
    ArrayNode rows = http.export(ADMIN, "index=summary run=escape | table tags, _raw");
    assertThat(rows.get(0).path("_raw").asText())
        .isEqualTo("msg=\"say \\\"hi\\\"\", tags=\"a\", tags=\"b\", run=escape");
    // a repeated key reads back as a multivalue
    assertThat(rows.get(0).path("tags").toString()).isEqualTo("[\"a\",\"b\"]");
  }

  @Test
  void subsearchesAndMapCollectAsTheUser() throws Exception {
    http.export(
        ADMIN,
        "| makeresults | eval n=1 | append [ | makeresults | eval m=2"
            + " | collect index=summary marker=\"run=append\" ]");
    assertThat(count(ADMIN, "index=summary run=append m=2")).isEqualTo(1);
    http.export(
        ADMIN,
        "| makeresults | map search=\"| makeresults | eval k=3"
            + " | collect index=summary marker=run=map\"");
    assertThat(count(ADMIN, "index=summary run=map k=3")).isEqualTo(1);
    // bob may not write: not through a subsearch either
    HttpResponse<String> refused =
        search(
            BOB,
            "| makeresults | append [ | makeresults | collect index=summary"
                + " marker=\"run=bobsub\" ]");
    // checked before any subsearch runs: the search is refused as a whole
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(refused.body()).contains("MISSING_CAPABILITY").contains("run_collect");
    assertThat(count(ADMIN, "index=summary run=bobsub")).isZero();
  }

  @Test
  void theAuditSaysWhatASearchCollectedAndWhere() throws Exception {
    http.export(
        ADMIN, "| makeresults count=2 | eval a=1 | collect index=summary marker=\"run=audited\"");
    CollectAudit.assertCollected(http, ADMIN, "audited", "2", "summary");
  }

  @Test
  void testmodeWritesNothing() throws Exception {
    ArrayNode passed =
        http.export(
            ADMIN,
            "index=main | stats count by status | collect index=summary testmode=t"
                + " marker=\"run=test\"");
    assertThat(passed).hasSize(2);
    assertThat(
            http.export(ADMIN, "index=summary run=test | stats count")
                .get(0)
                .path("count")
                .asLong())
        .isZero();
  }

  @Test
  void theJobCountsTheCollectedEvents() throws Exception {
    HttpResponse<String> created =
        http.send(
            "POST",
            "/api/v1/jobs",
            ADMIN,
            "{\"query\":\"index=main | collect index=summary marker=\\\"run=job\\\"\","
                + "\"mode\":\"blocking\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = TestHttp.json(created.body()).path("id").asText();
    JsonNode status = TestHttp.json(http.send("GET", "/api/v1/jobs/" + id, ADMIN, null).body());
    assertThat(status.path("eventsCollected").asLong()).as(status.toString()).isEqualTo(3);
    JsonNode inspect =
        TestHttp.json(http.send("GET", "/api/v1/jobs/" + id + "/inspect", ADMIN, null).body());
    assertThat(inspect.at("/costs/eventsCollected").asLong()).as(inspect.toString()).isEqualTo(3);
  }

  @Test
  void aRoleWithRunCollectWritesOnlyIndexesItMaySearch() throws Exception {
    http.export(CAROL, "index=main status=200 | collect index=summary marker=\"run=carol\"");
    assertThat(count(ADMIN, "index=summary run=carol")).isEqualTo(2);

    HttpResponse<String> web = search(CAROL, "index=main | collect index=web");
    assertThat(web.statusCode()).as(web.body()).isEqualTo(403);
    assertThat(web.body()).contains("INDEX_NOT_WRITABLE").contains("'web'");

    HttpResponse<String> internal = search(ADMIN, "index=main | collect index=_internal");
    assertThat(internal.statusCode()).as(internal.body()).isEqualTo(403);
    assertThat(internal.body()).contains("INDEX_NOT_WRITABLE").contains("'_internal'");
  }

  @Test
  void aUserWithoutRunCollectIsRefused() throws Exception {
    HttpResponse<String> refused =
        search(BOB, "index=main | collect index=summary marker=\"run=bob\"");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
    assertThat(refused.body()).contains("MISSING_CAPABILITY").contains("run_collect");
    assertThat(count(ADMIN, "index=summary run=bob")).isZero();
  }

  @Test
  void anIndexThatDoesNotExistIsNamed() throws Exception {
    HttpResponse<String> missing = search(ADMIN, "index=main | collect index=nosuch");
    assertThat(missing.statusCode()).as(missing.body()).isEqualTo(400);
    assertThat(missing.body()).contains("INDEX_NOT_FOUND").contains("'nosuch'");
  }

  private HttpResponse<String> search(String authorization, String query) throws Exception {
    return http.send(
        "POST",
        "/services/search/jobs/export",
        authorization,
        "output_mode=json&search=" + TestHttp.encode(query));
  }

  @Test
  void aResultsHostSourceSourcetypeAndIndexAreReadBackAsOrigFields() throws Exception {
    http.export(
        ADMIN,
        "index=main | stats count by host, source, sourcetype, index"
            + " | collect index=summary addinfo=f host=summarizer marker=\"run=orig\"");
    ArrayNode read =
        http.export(
            ADMIN,
            "index=summary run=orig"
                + " | table host, source, sourcetype, index, orig_host, orig_source,"
                + " orig_sourcetype, orig_index, count");
    assertThat(read).as(read.toString()).hasSize(1);
    JsonNode row = read.get(0);
    JsonNode original =
        http.export(ADMIN, "index=main | head 1 | table host, source, sourcetype").get(0);
    // the summary event's own fields, and the original ones beside them
    assertThat(row.path("host").asText()).isEqualTo("summarizer");
    assertThat(row.path("source").asText()).isEqualTo("collect");
    assertThat(row.path("sourcetype").asText()).isEqualTo("stash");
    assertThat(row.path("index").asText()).isEqualTo("summary");
    assertThat(row.path("orig_index").asText()).isEqualTo("main");
    assertThat(row.path("orig_host").asText()).isEqualTo(original.path("host").asText());
    assertThat(row.path("orig_source").asText()).isEqualTo(original.path("source").asText());
    assertThat(row.path("orig_sourcetype").asText())
        .isEqualTo(original.path("sourcetype").asText());
    assertThat(row.path("count").asText()).isEqualTo("3");
  }

  private long count(String authorization, String query) throws Exception {
    return http.export(authorization, query + " | stats count").get(0).path("count").asLong();
  }

  private static List<String> rows(ArrayNode rows, String first, String second) {
    List<String> texts = new ArrayList<>();
    for (JsonNode row : rows) {
      texts.add(row.path(first).asText() + " " + row.path(second).asText());
    }
    return texts;
  }
}
