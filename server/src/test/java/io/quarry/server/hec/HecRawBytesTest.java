package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.sourcetype.SourcetypeSettings;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /services/collector/raw} bodies as bytes, against a real server: ASCII and non-ASCII
 * lines, CRLF, an invalid sequence, a multi-byte character at the truncation, no final newline; and
 * an event the index refuses in the middle of ASCII lines stores those before it, once.
 */
class HecRawBytesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "pw";

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dataDirectory,
            PASSWORD,
            settings ->
                settings.put(
                    "sourcetypes",
                    Map.of(
                        "typed",
                        new SourcetypeSettings.Builder()
                            .indexExtractions(
                                List.of(
                                    new SourcetypeSettings.IndexExtractionSettings(
                                        "regex", "n=(?<n>\\S+)")))
                            .fields(Map.of("n", "long"))
                            .build(),
                        "cut",
                        new SourcetypeSettings.Builder().truncate(10).build())));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private static byte[] body(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object part : parts) {
      if (part instanceof String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
      } else {
        for (int b : (int[]) part) {
          out.write(b);
        }
      }
    }
    return out.toByteArray();
  }

  private HttpResponse<String> postRaw(String sourcetype, byte[] body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(
                URI.create(server.url() + "/services/collector/raw?sourcetype=" + sourcetype))
            .header("Authorization", "Splunk " + TestServers.TOKEN)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** The {@code _raw} of every event the search returns, sorted. */
  private List<String> raws(String query) throws Exception {
    HttpResponse<String> response =
        TestServers.export(server, PASSWORD, query + " | table _raw | sort _raw");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<String> raws = new ArrayList<>();
    for (String line : response.body().split("\n")) {
      JsonNode row = JSON.readTree(line);
      if (row.has("result")) {
        raws.add(row.get("result").get("_raw").asText());
      }
    }
    return raws;
  }

  @Test
  void bytesBecomeTheEventsTheirTextHolds() throws Exception {
    HttpResponse<String> response =
        postRaw(
            "cut",
            body(
                "caf",
                new int[] {0xC3, 0xA9},
                " au lait\r\n", // non-ASCII, cut at 10 bytes: "café au l" is 10
                "0123456789ABC\n", // ASCII, cut at 10
                "012345678",
                new int[] {0xC3, 0xA9},
                "\r\n", // é would end at byte 11: cut before it
                "bad ",
                new int[] {0xE2, 0x82},
                "\n", // an invalid sequence at the line end
                "  \r\n",
                "last"));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(raws("sourcetype=cut"))
        .containsExactly("012345678", "0123456789", "bad \uFFFD", "café au l", "last");
  }

  @Test
  void anEventTheIndexRefusesStoresTheAsciiLinesBeforeItOnce() throws Exception {
    HttpResponse<String> response =
        postRaw("typed", body("n=1 one\r\nn=2 two\nn=x three\nn=4 four"));
    assertThat(response.statusCode()).isEqualTo(400);
    JsonNode answer = JSON.readTree(response.body());
    assertThat(answer.get("code").asInt()).isEqualTo(6);
    assertThat(answer.get("invalid-event-number").asInt()).isEqualTo(2);
    assertThat(raws("sourcetype=typed")).containsExactly("n=1 one", "n=2 two");
    assertThat(raws("sourcetype=typed n>1")).containsExactly("n=2 two");
  }
}
