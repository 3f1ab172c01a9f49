package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigLoader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry reindex} on a real data directory: access-log events sent over HEC into an index of
 * the event layout, the configuration switched to {@code format: blocks}, the command run with the
 * server stopped; the server then answers every search as before, from buckets of the block layout.
 * The command refuses an index not configured for blocks, a metric-less unknown name, and a data
 * directory a running server holds.
 */
class ReindexCommandTest {
  @TempDir Path directory;

  private static final List<String> SEARCHES =
      List.of(
          "search index=main | stats count",
          "search index=main status=404 | stats count by clientip | sort clientip",
          "search index=main GET cart | sort 0 _time _raw | table _time _raw host sourcetype",
          "search index=main | rex \"(?<verb>GET|POST) \" | stats count by verb | sort verb",
          "search index=main | timechart span=1h count",
          "search index=web | stats count");

  @Test
  void convertsOldBucketsAndSearchesAnswerAsBefore() throws Exception {
    Path events = config("events.yml", "events");
    Path blocks = config("blocks.yml", "blocks");
    List<String> before = new ArrayList<>();
    QuarryServer server = start(events);
    try {
      Random random = new Random(7);
      for (int batch = 0; batch < 4; batch++) {
        HttpResponse<String> sent =
            TestServers.postRaw(server, TestServers.TOKEN, "access_combined", lines(random, 700));
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
      }
      HttpResponse<String> web =
          TestServers.postRaw(server, "webtok", "access_combined", lines(random, 50));
      assertThat(web.statusCode()).as(web.body()).isEqualTo(200);
      for (String search : SEARCHES) {
        before.add(answer(server, search));
      }
    } finally {
      server.close();
    }
    assertThat(before.get(0)).contains("\"count\":\"2800\"");

    assertThat(CliRun.printed(0, "reindex", "--config=" + events)).contains("nothing to convert");
    assertThat(CliRun.printed(2, "reindex", "--config=" + events, "main"))
        .contains("index 'main' is configured for the events layout")
        .contains("set storage.indexes.main.format (or storage.format) to blocks");
    assertThat(CliRun.printed(2, "reindex", "--config=" + blocks, "nosuch"))
        .contains("no index 'nosuch'");
    assertThat(CliRun.printed(2, "reindex", "--config=" + blocks, "web")).contains("index 'web'");

    String converted = CliRun.printed(0, "reindex", "--config=" + blocks);
    assertThat(converted)
        .containsPattern("main\\s+bucket 1\\s+converted: 2,800 events, [0-9.]+ MB -> [0-9.]+ MB")
        .contains("1 buckets converted, 2,800 events");
    assertThat(formats("main")).containsOnly("blocks 3"); // the default layout of new block buckets
    assertThat(formats("web")).isEmpty(); // untouched: the event layout records no format
    assertThat(CliRun.printed(0, "reindex", "--config=" + blocks))
        .contains("every bucket is already in blocks", "0 buckets converted");

    server = start(blocks);
    try {
      assertThat(CliRun.printed(1, "reindex", "--config=" + blocks))
          .contains("is in use by a running Quarry; stop the server first");
      for (int i = 0; i < SEARCHES.size(); i++) {
        assertThat(answer(server, SEARCHES.get(i))).as(SEARCHES.get(i)).isEqualTo(before.get(i));
      }
    } finally {
      server.close();
    }
  }

  @Test
  void serverAndDemoTakeTheSharedFileFlags() {
    picocli.CommandLine.ParseResult parsed =
        QuarryCli.commandLine()
            .parseArgs("server", "--data-dir=/d", "--config=/c.yml", "--port=9", "--bind=::1");
    ServerCommand server = (ServerCommand) parsed.subcommand().commandSpec().userObject();
    assertThat(server.options.files.dataDir).isEqualTo("/d");
    assertThat(server.options.files.config).isEqualTo(Path.of("/c.yml"));
    assertThat(server.options.port).isEqualTo(9);
    assertThat(server.options.bind).isEqualTo("::1");
    ReindexCommand reindex =
        (ReindexCommand)
            QuarryCli.commandLine()
                .parseArgs("reindex", "--data-dir=/d", "web", "app")
                .subcommand()
                .commandSpec()
                .userObject();
    assertThat(reindex.files.dataDir).isEqualTo("/d");
    assertThat(reindex.indexes).containsExactly("web", "app");
  }

  /** Access-log lines over a few hours, a few clients, some statuses. */
  private static String lines(Random random, int count) {
    StringBuilder body = new StringBuilder();
    String[] verbs = {"GET", "POST"};
    String[] paths = {"/cart.do", "/product.screen", "/category.screen", "/oldlink"};
    int[] statuses = {200, 200, 200, 404, 500, 503};
    for (int i = 0; i < count; i++) {
      int second = random.nextInt(6 * 3600);
      body.append(
          String.format(
              java.util.Locale.ROOT,
              "10.0.0.%d - - [24/Nov/2026:%02d:%02d:%02d +0000] \"%s %s?itemId=%d HTTP/1.1\" %d %d"
                  + " \"-\" \"Mozilla/5.0\"\n",
              random.nextInt(8),
              second / 3600,
              second / 60 % 60,
              second % 60,
              verbs[random.nextInt(2)],
              paths[random.nextInt(paths.length)],
              random.nextInt(100),
              statuses[random.nextInt(statuses.length)],
              random.nextInt(5000)));
    }
    return body.toString();
  }

  private Path config(String file, String format) throws Exception {
    Path path = directory.resolve(file);
    Files.writeString(
        path,
        """
        server: {bind: 127.0.0.1, port: 0}
        dataDir: '%s'
        indexes: [main, web]
        auth: {adminPassword: pw}
        hec:
          tokens:
            - {token: %s, name: test, defaultIndex: main, indexes: [main]}
            - {token: webtok, name: web, defaultIndex: web, indexes: [web]}
        storage:
          indexes:
            main: {format: %s}
            web: {format: events}
        """
            .formatted(directory.resolve("data"), TestServers.TOKEN, format));
    return path;
  }

  private static QuarryServer start(Path config) throws Exception {
    return QuarryServer.start(ConfigLoader.load(config, Map.of(), Map.of()), Clock.systemUTC());
  }

  private static String answer(QuarryServer server, String search) throws Exception {
    HttpResponse<String> response = TestServers.export(server, "pw", search);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  /** The format records of an index's buckets. */
  private List<String> formats(String index) throws Exception {
    Path buckets = directory.resolve("data/indexes").resolve(index).resolve("buckets");
    List<String> formats = new ArrayList<>();
    try (var files = Files.walk(buckets)) {
      for (Path file :
          files.filter(f -> f.getFileName().toString().equals("bucket.format")).toList()) {
        formats.add(Files.readString(file).strip());
      }
    }
    return formats;
  }
}
