package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /services/collector/event} bodies whose {@code event} strings go to the store as the
 * body's bytes (ASCII, no escapes) or as decoded text (escapes, non-ASCII, objects, numbers),
 * against a real server: random bodies of several envelopes each, and every event's stored {@code
 * _raw}, time, host, source, sourcetype and field must be what the envelope said — the expected
 * values written by the generator, not read from Quarry.
 */
class HecEventBytesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "pw";

  /** An event member as JSON, and the {@code _raw} Splunk stores for it. */
  private record Text(String json, String raw) {}

  private static final Text[] TEXTS = {
    new Text("\"GET /a HTTP/1.1 200\"", "GET /a HTTP/1.1 200"),
    new Text("\"tab\\there\"", "tab\there"),
    new Text("\"quote \\\" and \\\\ slash\"", "quote \" and \\ slash"),
    new Text("\"line one\\nline two\"", "line one\nline two"),
    new Text("\"\\u00e9t\\u00e9 escaped\"", "été escaped"),
    new Text("\"caf\u00e9 au lait\"", "café au lait"),
    new Text("\"\u65e5\u672c \uD83D\uDE00 wide\"", "日本 \uD83D\uDE00 wide"),
    new Text("\"del \u007f byte\"", "del \u007f byte"),
    new Text("\"  padded  \"", "  padded  "),
    new Text("\"slash / and {braces} [x]\"", "slash / and {braces} [x]"),
    new Text("{\"a\":1,\"b\":\"x y\"}", "{\"a\":1,\"b\":\"x y\"}"),
    new Text("[1,\"two\"]", "[1,\"two\"]"),
    new Text("42", "42"),
    new Text("1.5", "1.5"),
    new Text("true", "true"),
  };

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private HttpResponse<String> postEvents(String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event"))
            .header("Authorization", "Splunk " + TestServers.TOKEN)
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** Each event's stored values as one line, by its {@code seq} field. */
  private List<String> stored() throws Exception {
    HttpResponse<String> response =
        TestServers.export(
            server,
            PASSWORD,
            "index=main | eval t=tostring(floor(_time)) | sort seq"
                + " | table seq _raw t host source sourcetype k");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<String> rows = new ArrayList<>();
    for (String line : response.body().split("\n")) {
      JsonNode row = JSON.readTree(line);
      if (row.has("result")) {
        JsonNode r = row.get("result");
        rows.add(
            String.join(
                "|",
                r.get("seq").asText(),
                r.get("_raw").asText(),
                r.get("t").asText(),
                r.get("host").asText(),
                r.get("source").asText(),
                r.get("sourcetype").asText(),
                r.path("k").asText("-")));
      }
    }
    return rows;
  }

  @Test
  void everyEventIsStoredAsItsEnvelopeSays() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("HecEventBytesTest seed " + seed);
    Random random = new Random(seed);
    List<String> expected = new ArrayList<>();
    int seq = 0;
    for (int request = 0; request < 12; request++) {
      StringBuilder body = new StringBuilder();
      int envelopes = 1 + random.nextInt(25);
      for (int e = 0; e < envelopes; e++, seq++) {
        Text text = TEXTS[random.nextInt(TEXTS.length)];
        String id = String.format("%05d", seq);
        long time = 1_700_000_000L + random.nextInt(1_000_000);
        boolean overrides = random.nextBoolean();
        boolean field = random.nextBoolean();
        StringBuilder envelope = new StringBuilder("{");
        if (random.nextBoolean()) { // before or after the event, with white space or none
          envelope.append("\"time\":").append(time).append(".25, ");
        }
        envelope.append("\"event\": ").append(text.json);
        if (!envelope.toString().contains("\"time\"")) {
          envelope.append(",\"time\":\"").append(time).append("\"");
        }
        if (overrides) {
          envelope.append(",\"host\":\"h").append(seq % 3).append("\",\"source\":\"s\"");
          envelope.append(",\"sourcetype\":\"st").append(seq % 2).append("\"");
        }
        envelope.append(",\"fields\":{\"seq\":\"").append(id).append("\"");
        if (field) {
          envelope.append(",\"k\":[\"v").append(seq % 4).append("\"]");
        }
        envelope.append("}}");
        body.append(envelope).append(random.nextBoolean() ? "\n" : "");
        expected.add(
            String.join(
                "|",
                id,
                text.raw,
                Long.toString(time),
                overrides ? "h" + seq % 3 : java.net.InetAddress.getLocalHost().getHostName(),
                overrides ? "s" : "http:test",
                overrides ? "st" + seq % 2 : "httpevent",
                field ? "v" + seq % 4 : "-"));
      }
      HttpResponse<String> response = postEvents(body.toString());
      assertThat(response.statusCode()).as(body + " → " + response.body()).isEqualTo(200);
    }
    assertThat(stored()).as("seed " + seed).containsExactlyElementsOf(expected);
  }

  @Test
  void aBadEnvelopeAfterAsciiEventsRefusesTheBodyWholeAndItsCorrectionStoresEachOnce()
      throws Exception {
    HttpResponse<String> response =
        postEvents(
            "{\"event\":\"first\",\"fields\":{\"seq\":\"1\"}}"
                + "{\"event\":\"second \\\"q\\\"\",\"fields\":{\"seq\":\"2\"}}"
                + "{\"event\":\"   \",\"fields\":{\"seq\":\"3\"}}"
                + "{\"event\":\"fourth\",\"fields\":{\"seq\":\"4\"}}");
    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode answer = JSON.readTree(response.body());
    assertThat(answer.get("code").asInt()).isEqualTo(13); // event field is blank
    assertThat(answer.get("invalid-event-number").asInt()).isEqualTo(2);
    assertThat(stored()).as("refused whole").isEmpty();

    HttpResponse<String> corrected =
        postEvents(
            "{\"event\":\"first\",\"fields\":{\"seq\":\"1\"}}"
                + "{\"event\":\"second \\\"q\\\"\",\"fields\":{\"seq\":\"2\"}}"
                + "{\"event\":\"third\",\"fields\":{\"seq\":\"3\"}}"
                + "{\"event\":\"fourth\",\"fields\":{\"seq\":\"4\"}}");
    assertThat(corrected.statusCode()).as(corrected.body()).isEqualTo(200);
    assertThat(stored())
        .extracting(row -> row.split("\\|")[1])
        .containsExactly("first", "second \"q\"", "third", "fourth");
  }

  @Test
  void aBodyAfterAByteOrderMarkTakesTheEventsBytesFromTheirOwnPlace() throws Exception {
    // the byte offsets Jackson gives count the mark: 3 bytes earlier would read ": " here
    HttpResponse<String> response =
        postEvents("\uFEFF{\"event\": \"xyz\",\"fields\":{\"seq\":\"1\"}}");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(stored()).extracting(row -> row.split("\\|")[1]).containsExactly("xyz");
  }
}
