package io.quarry.server.search;

import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.exec.PluginFailureException;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.server.http.ApiException;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a failed search answers over HTTP: the one place where the search package turns what went
 * wrong (a memory limit, the breaker over all searches, a plugin's failure, a subsearch's error)
 * into a status, a stable error code and a message that says what to do. Statuses are numbers;
 * {@link ApiException#of} makes the response.
 */
final class SearchFailures {
  private static final Logger LOG = Logger.getLogger(SearchFailures.class.getName());

  /** The code of a search refused because all running searches hold the most memory allowed. */
  static final String BREAKER_CODE = "SEARCH_MEMORY_BREAKER";

  private static final String BREAKER_ADVICE =
      "; the running searches together hold the most memory allowed: retry when others finished,"
          + " narrow the search, or raise search.maxTotalMemoryBytes";

  private SearchFailures() {}

  /**
   * The answer to {@code e}, thrown while running {@code query}: 503 with Retry-After over the
   * breaker, 422 over the search's own memory limit, 500 naming the plugin when a plugin's command
   * threw, the error of a search that {@code map} ran (a 400 {@code QUERY_PARSE} when it does not
   * parse); anything else as it was.
   */
  static RuntimeException of(String query, RuntimeException e) {
    Throwable cause = e instanceof PluginFailureException ? e.getCause() : e;
    if (cause instanceof MemoryLimitExceededException over) {
      if (SearchMemory.BREAKER.equals(over.owner())) {
        LOG.warning("search stopped by the memory breaker: " + e.getMessage() + ": " + query);
        return ApiException.of(
            503,
            BREAKER_CODE,
            over.getMessage() + BREAKER_ADVICE,
            Map.of(),
            Map.of("Retry-After", "10"));
      }
      LOG.warning("search over its memory limit: " + e.getMessage() + ": " + query);
      return ApiException.of(
          422,
          "MEMORY_LIMIT",
          e.getMessage()
              + "; narrow the search (fewer groups or rows) or raise search.maxMemoryBytes",
          Map.of(),
          Map.of());
    }
    if (!(e instanceof PluginFailureException)) {
      return e;
    }
    // map: a built-in that runs searches failed with a search's own error, which it answers
    if (cause instanceof ApiException searchFailed) {
      return searchFailed;
    }
    if (cause instanceof QueryParseException wrong) {
      return ApiException.of(
          400,
          "QUERY_PARSE",
          wrong.getMessage(),
          Map.of(
              "line", wrong.position().line(),
              "column", wrong.position().column(),
              "offset", wrong.position().offset(),
              "context", wrong.render()),
          Map.of());
    }
    LOG.log(Level.WARNING, "search failed in a plugin: " + query, e);
    return ApiException.of(500, "PLUGIN_FAILED", e.getMessage(), Map.of(), Map.of());
  }

  /**
   * 400 {@code SEARCH_NOT_SUPPORTED}: the page engine has no stage for this combination of {@code
   * commands} (the search is refused whole, before it reads anything); the message names the
   * rewrite that fits the refused form ({@link RefusalHints}), if one does.
   */
  static ApiException notSupported(List<Command> commands) {
    String names =
        String.join(" | ", commands.stream().map(io.quarry.ql.parser.SplText::command).toList());
    String hint = RefusalHints.of(commands);
    return ApiException.of(
        400,
        "SEARCH_NOT_SUPPORTED",
        "this combination of commands is not supported yet: "
            + names
            + (hint == null ? "; rewrite the search or report it" : "; " + hint + ", or report it"),
        Map.of("commands", commands.stream().map(Command::name).toList()),
        Map.of());
  }

  /** 503 with Retry-After: the subsearch's rows would pass the breaker over all searches. */
  static ApiException subsearchBreaker(Subsearch subsearch, String why) {
    String message = subsearch.describe() + " failed: " + why;
    boolean advised = why.contains("search.maxTotalMemoryBytes") && why.contains("retry when");
    return ApiException.of(
        503,
        BREAKER_CODE,
        advised ? message : message + BREAKER_ADVICE,
        Map.of(),
        Map.of("Retry-After", "10"));
  }

  /**
   * A subsearch that failed with {@code status}: a server-side failure or a memory limit keeps its
   * status, anything else is the outer search's bad request ({@code SUBSEARCH_FAILED}).
   */
  static ApiException subsearch(Subsearch subsearch, int status, String why) {
    return ApiException.of(
        status >= 500 || status == 422 ? status : 400,
        "SUBSEARCH_FAILED",
        subsearch.describe() + " failed: " + why,
        Map.of(),
        Map.of());
  }

  /**
   * A search that writes ({@code command}: {@code collect}, {@code outputlookup}, {@code map})
   * refused where none may run ({@code where}), saying what to do ({@code advice}): 400 {@code
   * SEARCH_WRITES}.
   */
  static ApiException writes(String where, String command, String advice) {
    return ApiException.of(
        400,
        "SEARCH_WRITES",
        where
            + " never runs a search that writes events or lookups, and this one does ('"
            + command
            + "'): "
            + advice,
        Map.of("command", command),
        Map.of());
  }
}
