package io.quarry.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over a real server with one ingest pipeline: a request whose events are indexed and only wait for
 * their log's fsync hands the pipeline on — a multi-index HEC {@code /event} body (every index's
 * batch appended, then each waits for its own log's fsync), a {@code receivers/simple} body and a
 * search's {@code collect} — so another request is indexed and answered while the fsync is held (a
 * slow disk, {@link HeldLogDisks}); the held request is answered only once its events are durable,
 * and every acknowledged event is found once, after a restart too. Before the hand-on the second
 * request waited for the pipeline until the fsync ended. A failed fsync still answers 503.
 */
class FsyncWaitHandsOnTest {
  private static final String PASSWORD = "pw";
  private static final long TIME = 1_767_744_000L; // 2026-01-07T00:00:00Z

  @TempDir Path data;

  private static final UnaryOperator<ConfigBuilder> ONE_PIPELINE =
      settings ->
          TestServers.indexes(settings, TestServers.TOKEN, List.of("main", "web", "free"))
              .put("ingest.pipelines", 1)
              // no scheduled commit while a test holds an fsync: its roll of the log would force
              // the held file under the index's sequence lock and stall the appends themselves
              .put("storage.commitIntervalSeconds", 3_600);

  @Test
  void aMultiIndexEventBodyHandsItsPipelineOnWhileItsIndexesSync() throws Exception {
    HeldLogDisks disks = new HeldLogDisks();
    try (QuarryServer server =
        TestServers.startWithDirectories(data, PASSWORD, ONE_PIPELINE, disks)) {
      HttpResponse<String> held =
          whileHeld(
              server,
              disks,
              () ->
                  TestServers.postHec(
                      server,
                      "/services/collector/event",
                      envelopes("main", "held", 3) + envelopes("web", "held", 2)),
              "main",
              "web");
      assertThat(held.statusCode()).as(held.body()).isEqualTo(200);
      assertThat(TestServers.countOf(server, PASSWORD, "main")).isEqualTo(3);
      assertThat(TestServers.countOf(server, PASSWORD, "web")).isEqualTo(2);
    }
    try (QuarryServer restarted = TestServers.start(data, PASSWORD, ONE_PIPELINE)) {
      assertThat(TestServers.countOf(restarted, PASSWORD, "main")).as("main, once").isEqualTo(3);
      assertThat(TestServers.countOf(restarted, PASSWORD, "web")).as("web, once").isEqualTo(2);
      assertThat(TestServers.countOf(restarted, PASSWORD, "free")).as("free, once").isEqualTo(1);
    }
  }

  @Test
  void aSimpleReceiverBodyHandsItsPipelineOnWhileItSyncs() throws Exception {
    HeldLogDisks disks = new HeldLogDisks();
    try (QuarryServer server =
        TestServers.startWithDirectories(data, PASSWORD, ONE_PIPELINE, disks)) {
      HttpResponse<String> held =
          whileHeld(
              server,
              disks,
              () ->
                  simple(
                      server,
                      "2026-01-07T00:00:00Z simple held 1\n2026-01-07T00:00:01Z simple held 2\n"),
              "main");
      assertThat(held.statusCode()).as(held.body()).isEqualTo(200);
      assertThat(TestServers.countOf(server, PASSWORD, "main")).isEqualTo(2);
    }
  }

  @Test
  void aCollectHandsItsPipelineOnWhileItSyncs() throws Exception {
    HeldLogDisks disks = new HeldLogDisks();
    try (QuarryServer server =
        TestServers.startWithDirectories(data, PASSWORD, ONE_PIPELINE, disks)) {
      HttpResponse<String> held =
          whileHeld(
              server,
              disks,
              () ->
                  TestServers.export(
                      server,
                      PASSWORD,
                      "| makeresults count=4 | streamstats count as n"
                          + " | eval note=\"collected \" . n | collect index=main"),
              "main");
      assertThat(held.statusCode()).as(held.body()).isEqualTo(200);
      assertThat(TestServers.countOf(server, PASSWORD, "main")).isEqualTo(4);
    }
  }

  /**
   * A multi-index body whose first index's fsync fails while the second's succeeds: 503 code 9
   * naming the index that is stored (its batch was appended before any fsync was waited for), so a
   * shipper resends only the other's events; a single-index body on the failed log: 503 as before.
   */
  @Test
  void aFailedFsyncAnswers503NamingWhatIsStored() throws Exception {
    HeldLogDisks disks = new HeldLogDisks();
    QuarryServer server = TestServers.startWithDirectories(data, PASSWORD, ONE_PIPELINE, disks);
    try {
      disks.fail("main");
      HttpResponse<String> failed =
          TestServers.postHec(
              server,
              "/services/collector/event",
              envelopes("main", "failed", 3) + envelopes("web", "failed", 2));
      assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
      assertThat(failed.body())
          .contains("\"code\":9")
          .contains("storing the events for index 'main' failed")
          .contains("after an fsync failed")
          .contains("2 events for [web] were stored");
      assertThat(TestServers.countOf(server, PASSWORD, "web")).isEqualTo(2);

      HttpResponse<String> simple = simple(server, "2026-01-07T00:00:00Z after the failure\n");
      assertThat(simple.statusCode()).as(simple.body()).isEqualTo(503);
      assertThat(simple.body()).contains("SERVER_BUSY").contains("storage write failed");
    } finally {
      // closing an index whose log failed stop reports it (its last commit cannot roll the log)
      assertThatThrownBy(server::close).hasMessageContaining("after an fsync failed");
    }
  }

  /**
   * Holds the fsyncs of {@code heldIndexes}, sends {@code request} and waits until it waits for a
   * held fsync; then a HEC body for index {@code free} (not held) must be answered while the held
   * request still waits; then releases the fsyncs and returns the held request's answer.
   */
  private static HttpResponse<String> whileHeld(
      QuarryServer server, HeldLogDisks disks, Request request, String... heldIndexes)
      throws Exception {
    disks.hold(heldIndexes);
    CompletableFuture<HttpResponse<String>> held;
    try {
      held =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return request.send();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      assertThat(disks.awaitHeldFsync()).as("the request waits for a held fsync").isTrue();
      CompletableFuture<HttpResponse<String>> free =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return TestServers.postHec(
                      server, "/services/collector/event", envelopes("free", "free", 1));
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      HttpResponse<String> answered = free.get(10, TimeUnit.SECONDS);
      assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
      assertThat(held).as("answered only once its events are durable").isNotDone();
    } finally {
      disks.release();
    }
    return held.get(30, TimeUnit.SECONDS);
  }

  @FunctionalInterface
  private interface Request {
    HttpResponse<String> send() throws Exception;
  }

  private static HttpResponse<String> simple(QuarryServer server, String body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.url()
                            + "/services/receivers/simple?output_mode=json&index=main"
                            + "&sourcetype=app"))
                .header("Authorization", TestServers.basic(PASSWORD))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** {@code count} HEC envelopes for {@code index}. */
  private static String envelopes(String index, String body, int count) {
    StringBuilder envelopes = new StringBuilder();
    for (int i = 0; i < count; i++) {
      envelopes
          .append("{\"time\":")
          .append(TIME + i)
          .append(",\"index\":\"")
          .append(index)
          .append("\",\"sourcetype\":\"app\",\"event\":\"")
          .append(body)
          .append(' ')
          .append(index)
          .append(" event ")
          .append(i)
          .append("\"}\n");
    }
    return envelopes.toString();
  }
}
