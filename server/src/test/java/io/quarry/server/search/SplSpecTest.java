package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.server.QuarryServer;
import io.quarry.server.config.QuarryConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every golden spec in {@code src/test/resources/spl-spec} (see its README) against a real
 * server loaded with the Loghub samples and the demo access log through the HEC raw endpoint.
 */
class SplSpecTest {
  /** Dataset name -> sample file (demo resources), sourcetype. */
  private static final Map<String, String[]> DATASETS =
      Map.of(
          "web", new String[] {"access.log", "access_combined"},
          "ssh", new String[] {"OpenSSH_2k.log", "linux_secure"},
          "linux", new String[] {"Linux_2k.log", "syslog"},
          "apache", new String[] {"Apache_2k.log", "apache_error"});

  private static final String TOKEN = "spec-token";

  @TempDir static Path dataDirectory;
  private static QuarryServer server;

  @BeforeAll
  static void load() throws Exception {
    List<String> indexes = List.copyOf(DATASETS.keySet());
    server =
        QuarryServer.start(
            new QuarryConfig(
                new QuarryConfig.Server("127.0.0.1", 0, 64L * 1024 * 1024, 2, null),
                dataDirectory.toString(),
                indexes,
                new QuarryConfig.Auth("spec-password"),
                new QuarryConfig.Hec(
                    List.of(new QuarryConfig.HecToken(TOKEN, "spec", "web", indexes))),
                null,
                null,
                null,
                null),
            Clock.systemUTC());
    HttpClient http = HttpClient.newHttpClient();
    for (Map.Entry<String, String[]> dataset : DATASETS.entrySet()) {
      byte[] body;
      try (InputStream in =
          QuarryServer.class.getResourceAsStream(
              "/io/quarry/server/demo/" + dataset.getValue()[0])) {
        body = in.readAllBytes();
      }
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          server.url()
                              + "/services/collector/raw?index="
                              + dataset.getKey()
                              + "&sourcetype="
                              + dataset.getValue()[1]))
                  .header("Authorization", "Splunk " + TOKEN)
                  .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }
  }

  @AfterAll
  static void stop() throws IOException {
    server.close();
  }

  @TestFactory
  Stream<DynamicTest> specs() throws IOException, URISyntaxException {
    Path directory = Path.of(SplSpecTest.class.getResource("/spl-spec").toURI());
    List<Path> files;
    try (Stream<Path> listed = Files.list(directory)) {
      files = listed.filter(p -> p.toString().endsWith(".spl-spec")).sorted().toList();
    }
    assertThat(files).hasSizeGreaterThanOrEqualTo(10);
    return files.stream()
        .map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> check(file)));
  }

  private static void check(Path file) throws IOException {
    Spec spec = Spec.read(file);
    assertThat(DATASETS).as("dataset of " + file).containsKey(spec.dataset());
    SearchService search = server.search();
    List<Page> pages = new ArrayList<>();
    search.run(spec.query(), search.plan(spec.query(), null, null), pages::add);
    List<String> header = new ArrayList<>();
    List<List<String>> rows = new ArrayList<>();
    for (Page page : pages) {
      header.clear();
      for (int c = 0; c < page.schema().size(); c++) {
        header.add(page.schema().column(c).name() + ":" + page.schema().column(c).type());
      }
      for (int p = 0; p < page.positionCount(); p++) {
        List<String> row = new ArrayList<>();
        for (int c = 0; c < page.schema().size(); c++) {
          Object value = page.block(c).getObject(p);
          row.add(value == null ? "" : io.quarry.ql.exec.Values.toText(value));
        }
        rows.add(row);
      }
    }
    assertThat(header).as(spec.query()).isEqualTo(spec.header());
    assertThat(rows).as(spec.query()).isEqualTo(spec.rows());
  }

  /** One parsed spec file. */
  record Spec(String dataset, String query, List<String> header, List<List<String>> rows) {
    static Spec read(Path file) throws IOException {
      String dataset = null;
      String query = null;
      List<String> header = null;
      List<List<String>> rows = new ArrayList<>();
      boolean inTable = false;
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        if (inTable) {
          List<String> cells = List.of(line.split("\\|", -1)).stream().map(String::strip).toList();
          if (header == null) {
            header = cells;
          } else {
            rows.add(cells);
          }
        } else if (line.startsWith("dataset:")) {
          dataset = line.substring("dataset:".length()).strip();
        } else if (line.startsWith("query:")) {
          query = line.substring("query:".length()).strip();
        } else if (line.strip().equals("expect:")) {
          inTable = true;
        } else {
          throw new IllegalArgumentException(file + ": unexpected line '" + line + "'");
        }
      }
      if (dataset == null || query == null || header == null) {
        throw new IllegalArgumentException(file + ": needs dataset:, query: and expect:");
      }
      return new Spec(dataset, query, header, rows);
    }
  }
}
