package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.sourcetype.SourcetypeSettings;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HEC beyond single events, against a real server on loopback: indexer acknowledgement and its
 * errors, the raw endpoint with a configured multi-line sourcetype and typed index-time fields, and
 * the 503 backpressure path under a bounded burst.
 */
class HecProtocolTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "pw";

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    QuarryConfig config =
        TestServers.settings(dataDirectory, PASSWORD)
            .put("server.maxRequestBytes", 8L << 20)
            .put(
                "hec.tokens",
                List.of(
                    new HecToken("plain", "plain", "main", List.of("main"), false),
                    new HecToken("acked", "acked", "main", List.of("main"), true)))
            .put("ingest.pipelines", 1)
            .put("ingest.maxQueuedBytes", 1L)
            .put(
                "sourcetypes",
                Map.of(
                    "shop",
                    new SourcetypeSettings.Builder()
                        .breakOnlyBefore("^\\d{4}-")
                        .timeFormat("%Y-%m-%d %H:%M:%S")
                        .indexExtractions(
                            List.of(
                                new SourcetypeSettings.IndexExtractionSettings(
                                    "regex", "order=(?<order_id>\\d+) total=(?<total>\\S+)")))
                        .fields(Map.of("total", "double"))
                        .build()))
            .build();
    server = QuarryServer.start(config, Clock.systemUTC());
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private HttpResponse<String> post(String path, String token, String body, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Splunk " + token);
    }
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body());
  }

  private long count(String query) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/services/search/jobs/export"))
                .header(
                    "Authorization",
                    "Basic "
                        + Base64.getEncoder()
                            .encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "output_mode=json&search="
                            + URLEncoder.encode(query + " | stats count", StandardCharsets.UTF_8)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    for (String line : response.body().split("\n")) {
      JsonNode row = JSON.readTree(line);
      if (row.has("result")) {
        return row.get("result").get("count").asLong();
      }
    }
    throw new AssertionError("no result in " + response.body());
  }

  @Test
  void indexerAcknowledgementNumbersRequestsPerChannelAndAnswersOnce() throws Exception {
    String event = "{\"event\": \"hello\"}";
    HttpResponse<String> noChannel = post("/services/collector/event", "acked", event);
    assertThat(noChannel.statusCode()).isEqualTo(400);
    assertThat(json(noChannel).get("code").asInt()).isEqualTo(10);

    String channel = "11111111-2222-3333-4444-555555555555";
    HttpResponse<String> first =
        post("/services/collector/event", "acked", event, HecRoutes.CHANNEL_HEADER, channel);
    HttpResponse<String> second =
        post("/services/collector/raw?channel=" + channel, "acked", "line one\nline two\n");
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    assertThat(json(first).get("ackId").asLong()).isEqualTo(0);
    assertThat(json(second).get("ackId").asLong()).isEqualTo(1);

    HttpResponse<String> status =
        post(
            "/services/collector/ack",
            "acked",
            "{\"acks\": [0, 1, 7]}",
            HecRoutes.CHANNEL_HEADER,
            channel);
    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(json(status).get("acks").toString())
        .isEqualTo("{\"0\":true,\"1\":true,\"7\":false}");
    HttpResponse<String> again =
        post("/services/collector/ack?channel=" + channel, "acked", "{\"acks\": [0]}");
    assertThat(json(again).get("acks").get("0").asBoolean()).isFalse();

    HttpResponse<String> otherChannel =
        post("/services/collector/ack?channel=nobody", "acked", "{\"acks\": [0]}");
    assertThat(json(otherChannel).get("code").asInt()).isEqualTo(11);
    HttpResponse<String> disabled =
        post("/services/collector/ack?channel=" + channel, "plain", "{\"acks\": [0]}");
    assertThat(disabled.statusCode()).isEqualTo(400);
    assertThat(json(disabled).get("code").asInt()).isEqualTo(14);
    HttpResponse<String> badBody =
        post("/services/collector/ack?channel=" + channel, "acked", "{\"acks\": \"x\"}");
    assertThat(json(badBody).get("code").asInt()).isEqualTo(6);

    // a token without ack answers without ackId, channel or not
    HttpResponse<String> plain =
        post("/services/collector/event", "plain", event, HecRoutes.CHANNEL_HEADER, channel);
    assertThat(json(plain).has("ackId")).isFalse();
    assertThat(count("index=main")).isEqualTo(4);
  }

  @Test
  void theJavaHecSenderBatchesGzipsAndWaitsForAcknowledgement() throws Exception {
    try (io.quarry.client.HecSender hec =
        io.quarry.client.HecSender.builder(URI.create(server.url()), "acked")
            .sourcetype("sender")
            .batchEvents(700)
            .ack(true)
            .build()) {
      for (int i = 0; i < 5000; i++) {
        hec.send("sender event " + i);
      }
      hec.flush();
      assertThat(hec.sentEvents()).isEqualTo(5000);
    }
    assertThat(count("sourcetype=sender")).isEqualTo(5000);

    io.quarry.client.HecSender wrong =
        io.quarry.client.HecSender.builder(URI.create(server.url()), "plain").index("nope").build();
    wrong.send("lost");
    org.assertj.core.api.Assertions.assertThatThrownBy(wrong::flush)
        .isInstanceOf(io.quarry.client.QuarryClientException.class)
        .hasMessageContaining("Incorrect index");
    wrong.close();
  }

  @Test
  void theLogbackAppenderShipsAnApplicationsLog() throws Exception {
    ch.qos.logback.classic.LoggerContext logging = new ch.qos.logback.classic.LoggerContext();
    io.quarry.client.logback.QuarryAppender appender =
        new io.quarry.client.logback.QuarryAppender();
    appender.setContext(logging);
    appender.setUrl(server.url());
    appender.setToken("plain");
    appender.setSourcetype("myapp");
    appender.start();
    ch.qos.logback.classic.Logger logger = logging.getLogger("shop.Checkout");
    logger.addAppender(appender);
    for (int i = 0; i < 200; i++) {
      logger.info("order {} paid", i);
    }
    logger.error("payment failed", new IllegalStateException("card declined"));
    appender.stop();
    logging.stop();

    assertThat(count("sourcetype=myapp")).isEqualTo(201);
    assertThat(count("sourcetype=myapp level=ERROR")).isEqualTo(1);
    assertThat(count("sourcetype=myapp logger=shop.Checkout \"card declined\"")).isEqualTo(1);
    assertThat(count("sourcetype=myapp IllegalStateException")).isEqualTo(1); // the stack trace
  }

  @Test
  void rawStreamsUseTheConfiguredSourcetypeWithTypedIndexTimeFields() throws Exception {
    String body =
        """
        2026-01-02 10:00:00 order=1 total=9.50 ok
        2026-01-02 10:00:05 order=2 total=120.00 failed
          at shop.Checkout.pay(Checkout.java:10)
          at shop.Checkout.run(Checkout.java:3)
        2026-01-02 10:00:09 order=3 total=oops
        2026-01-02 10:00:10 order=4 total=1.00 never stored
        """;
    HttpResponse<String> response = post("/services/collector/raw?sourcetype=shop", "plain", body);
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(json(response).get("code").asInt()).isEqualTo(6);
    assertThat(json(response).get("invalid-event-number").asInt()).isEqualTo(2);
    assertThat(json(response).get("reason").asText()).contains("field 'total' is declared double");

    assertThat(count("sourcetype=shop")).as("refused whole: nothing stored").isZero();
    HttpResponse<String> corrected =
        post("/services/collector/raw?sourcetype=shop", "plain", body.replace("oops", "3.25"));
    assertThat(corrected.statusCode()).as(corrected.body()).isEqualTo(200);
    assertThat(count("sourcetype=shop")).isEqualTo(4);
    assertThat(count("sourcetype=shop total>100")).isEqualTo(1);
    assertThat(count("sourcetype=shop Checkout.run")).isEqualTo(1); // merged into event 2
    assertThat(count("sourcetype=shop order_id=2")).isEqualTo(1);

    // /event runs the sourcetype's index-time extractions too; the envelope's fields win
    HttpResponse<String> event =
        post(
            "/services/collector/event",
            "plain",
            "{\"sourcetype\": \"shop\", \"event\": \"order=7 total=70.5 via hec\"}"
                + "{\"sourcetype\": \"shop\", \"event\": \"order=8 total=1.0\","
                + " \"fields\": {\"order_id\": \"80\"}}");
    assertThat(event.statusCode()).as(event.body()).isEqualTo(200);
    assertThat(count("sourcetype=shop order_id=7 total>70")).isEqualTo(1);
    assertThat(count("sourcetype=shop order_id=80")).isEqualTo(1);

    // auto_extract_timestamp=true: the sourcetype's rule finds the time in the event
    HttpResponse<String> timed =
        post(
            "/services/collector/event?auto_extract_timestamp=true",
            "plain",
            "{\"sourcetype\": \"shop\", \"event\": \"2020-02-02 02:02:02 order=9 total=9\"}");
    assertThat(timed.statusCode()).as(timed.body()).isEqualTo(200);
    assertThat(
            count(
                "sourcetype=shop order_id=9 earliest=02/02/2020:00:00:00 latest=02/03/2020:00:00:00"))
        .isEqualTo(1);
  }

  @Test
  void aBurstBeyondTheIngestQueueGets503WithRetryAfterAndLosesNothingAcknowledged()
      throws Exception {
    HttpResponse<String> idle =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/health")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(json(idle).get("code").asInt()).isEqualTo(17);

    StringBuilder batch = new StringBuilder();
    for (int i = 0; i < 4000; i++) {
      batch.append("{\"event\": \"burst event ").append(i).append(" padding padding\"}\n");
    }
    int senders = 12;
    ExecutorService pool = Executors.newFixedThreadPool(senders);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<HttpResponse<String>>> sent = new ArrayList<>();
    try {
      for (int i = 0; i < senders; i++) {
        sent.add(
            pool.submit(
                () -> {
                  go.await();
                  return post("/services/collector/event", "plain", batch.toString());
                }));
      }
      go.countDown();
      int accepted = 0;
      int busy = 0;
      for (Future<HttpResponse<String>> future : sent) {
        HttpResponse<String> response = future.get();
        if (response.statusCode() == 200) {
          accepted++;
        } else {
          assertThat(response.statusCode()).as(response.body()).isEqualTo(503);
          assertThat(json(response).get("code").asInt()).isEqualTo(9);
          assertThat(response.headers().firstValue("Retry-After")).isPresent();
          busy++;
        }
      }
      assertThat(busy).as("one pipeline and one queued batch cannot take 12 at once").isPositive();
      assertThat(accepted).isPositive();
      assertThat(count("index=main burst")).isEqualTo(accepted * 4000L);
    } finally {
      pool.shutdownNow();
    }
  }
}
