package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reviewer b42 against lane visib42: Splunk's {@code data/indexes} entry says {@code
 * maxTotalDataSizeMB} 0 for an index that keeps everything (docs/api.md). An index whose size limit
 * is under 1 MiB ({@code storage.indexes.<name>.maxTotalBytes}, any positive number of bytes) must
 * not read as one without a limit: the MB are rounded down to 0.
 */
class SplunkRetentionRoundingTest {
  private static final String PASSWORD = "retention-pw";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path data;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.start(
            data,
            PASSWORD,
            settings -> settings.put("storage.indexes.main.maxTotalBytes", 512 * 1024L));
  }

  @Test
  void aLimitUnderOneMibIsNotReportedAsNoLimit() throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(server.url() + "/services/data/indexes/main?output_mode=json"))
                    .header("Authorization", TestServers.basic(PASSWORD))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode content = JSON.readTree(response.body()).at("/entry/0/content");
    assertThat(content.path("maxTotalDataSizeMB").asLong())
        .as("a 512 KiB limit, 0 meaning no limit: %s", content)
        .isNotZero();
  }
}
