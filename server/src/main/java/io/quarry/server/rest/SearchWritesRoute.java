package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.search.SearchService;
import java.util.Map;

/**
 * {@code POST /api/v1/search/writes} {@code {"query"}}: {@code {"writes": true}} when running the
 * query may write ({@code collect}, {@code outputlookup}, a {@code map} whose search text writes;
 * in its macros, saved searches and subsearches too), decided from the parsed query without running
 * anything. The search page asks it before running a query that came from a link or the back button
 * (Splunk's safeguards for risky commands), and before running a search again for its timeline.
 */
public final class SearchWritesRoute {
  private final Authenticator authenticator;
  private final SearchService search;

  public SearchWritesRoute(Authenticator authenticator, SearchService search) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.search = requireNonNull(search, "search is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.POST, "/api/v1/search/writes", this::writes);
  }

  private void writes(Exchange exchange) {
    authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Search");
    SearchRequest request = SearchRequest.read(exchange);
    boolean writes;
    try {
      writes = search.writingCommand(request.query()) != null;
    } catch (QueryParseException e) {
      throw QueryErrors.of(e);
    }
    exchange.json(HttpResponseStatus.OK, Map.of("writes", writes));
  }
}
