package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import io.quarry.client.SearchResults;
import io.quarry.server.QuarryServer;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.demo.DemoData;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code quarry demo}: the server, plus sample data on first start, plus example queries printed
 * with their answers (run over HTTP, exactly as the printed curl commands run them).
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Run the server with sample data and print example queries with their answers.")
final class DemoCommand implements Callable<Integer> {
  @Mixin ServerOptions options;

  @Override
  public Integer call() throws Exception {
    QuarryConfig loaded = options.load();
    List<String> indexes = new ArrayList<>(loaded.indexes());
    if (!indexes.contains(DemoData.WEB_INDEX)) {
      indexes.add(DemoData.WEB_INDEX);
    }
    QuarryConfig config = loaded.withIndexes(indexes);
    Clock clock = Clock.systemUTC();
    QuarryServer server = QuarryServer.start(config, clock);
    try {
      long events = DemoData.loadOnce(server.ingest(), server.dataDirectory(), clock.instant());
      ServerCommand.printStartup(server);
      if (events > 0) {
        System.out.println("  loaded " + events + " sample events into indexes main and web");
      }
      printExamples(server);
    } catch (Exception e) {
      server.close();
      throw e;
    }
    ServerCommand.awaitShutdown(server);
    return 0;
  }

  private static void printExamples(QuarryServer server) {
    String password = server.adminPassword().value();
    QuarryClient.Builder builder =
        QuarryClient.builder(URI.create(server.url())).adminPassword(password);
    String curlTrust = "";
    if (server.tls() != null && server.tls().generated() != null) {
      builder.sslContext(io.quarry.client.TlsTrust.trusting(server.tls().generated().ca()));
      curlTrust = "--cacert " + server.tls().generated().ca() + " ";
    }
    try (QuarryClient client = builder.build()) {
      printExamples(server, client, password, curlTrust);
    }
  }

  private static void printExamples(
      QuarryServer server, QuarryClient client, String password, String curlTrust) {
    String urlOption =
        (server.url().equals("http://127.0.0.1:8088")
                    || server.url().equals("https://127.0.0.1:8088")
                ? ""
                : "--url " + server.url() + " ")
            + (server.dataDirectory().equals(Path.of("data").toAbsolutePath().normalize())
                ? ""
                : "--data-dir " + server.dataDirectory() + " ");
    System.out.println();
    System.out.println("HEC token for sending events: " + server.hecTokens().get(0).token());
    System.out.println("Search as user 'admin' with password: " + password);
    for (DemoData.Example example : DemoData.EXAMPLES) {
      System.out.println();
      System.out.println("## " + example.title());
      System.out.println(
          "$ ./quarry search " + urlOption + "'" + example.query().replace("'", "'\\''") + "'");
      System.out.println(
          "$ curl -s "
              + curlTrust
              + "-u admin:"
              + password
              + " "
              + server.url()
              + "/services/search/jobs/export -d output_mode=json --data-urlencode search='"
              + example.query().replace("'", "'\\''")
              + "'");
      SearchResults results = client.search(example.query());
      Table.print(System.out, results.fields(), results.rows());
    }
    System.out.println();
    System.out.println("Send an event:");
    System.out.println(
        "$ curl -s "
            + curlTrust
            + server.url()
            + "/services/collector/event -H 'Authorization: Splunk "
            + server.hecTokens().get(0).token()
            + "' -d '{\"event\":\"hello from curl\",\"sourcetype\":\"demo\"}'");
    System.out.println();
    System.out.println(
        "Search page: open " + server.url() + "/ in a browser (user admin, the password above).");
    System.out.println(
        "Quarry is serving on "
            + server.url()
            + " (export endpoint: "
            + server.url()
            + "/services/search/jobs/export?search="
            + URLEncoder.encode("index=web | stats count", StandardCharsets.UTF_8)
            + "). Ctrl-C stops it.");
  }
}
