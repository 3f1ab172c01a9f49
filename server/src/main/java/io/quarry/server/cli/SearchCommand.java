package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import io.quarry.client.SearchResults;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code quarry search '<query>'}: runs a query on a running server and prints a table. */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    description = "Run a query against a running server and print the results as a table.")
final class SearchCommand implements Callable<Integer> {
  @Parameters(
      index = "0",
      paramLabel = "QUERY",
      description = "The SPL query, e.g. 'index=web | stats count by status'.")
  String query;

  @Mixin AdminOptions admin;

  @Option(
      names = "--earliest",
      paramLabel = "TIME",
      description = "Earliest time, e.g. -24h or 01/07/2026:00:00:00.")
  String earliest;

  @Option(names = "--latest", paramLabel = "TIME", description = "Latest time, e.g. now.")
  String latest;

  @Option(
      names = "--explain",
      description =
          "Print how the server would run the query (term-index query, execution mode, map/reduce"
              + " split) instead of running it.")
  boolean explain;

  @Override
  public Integer call() throws Exception {
    try (QuarryClient client = admin.client()) {
      if (explain) {
        System.out.println(client.explain(query, earliest, latest));
        return 0;
      }
      SearchResults results = client.search(query, earliest, latest);
      Table.print(System.out, results.fields(), results.rows());
      results.messages().forEach(System.err::println);
      return 0;
    }
  }
}
