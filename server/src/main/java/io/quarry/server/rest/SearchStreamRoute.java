package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.search.SearchService;
import io.quarry.server.search.SearchStats;
import java.io.IOException;
import java.time.Duration;

/**
 * {@code POST /api/v1/search}: runs a query and streams its typed results as they are produced, one
 * HTTP chunk per result page, in the format the {@code Accept} header asks for (JSON, NDJSON, CSV
 * or Arrow; see {@link ResultEncoder}).
 *
 * <p>The body is {@code {"query", "earliest", "latest", "timeout", "compression"}}. A slow client
 * slows the search (the stream waits while the socket is full); a client that disconnects cancels
 * it.
 */
public final class SearchStreamRoute {
  private final Authenticator authenticator;
  private final SearchService search;

  public SearchStreamRoute(Authenticator authenticator, SearchService search) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.search = requireNonNull(search, "search is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.POST, "/api/v1/search", this::stream);
  }

  private void stream(Exchange exchange) throws IOException {
    io.quarry.server.auth.Access access =
        authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Search");
    ResultEncoder.Format format =
        ResultEncoder.Format.negotiate(exchange.header(HttpHeaderNames.ACCEPT));
    SearchRequest request = SearchRequest.read(exchange);
    Duration timeLimit = request.seconds("timeout", search.maxTime());
    String query = request.query();
    String compression = request.text("compression") == null ? "none" : request.text("compression");
    if (!compression.equals("none") && !compression.equals("zstd")) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", "'compression' must be none or zstd, not '" + compression + "'");
    }
    // admitted before planning: subsearches run while the query is planned
    try (io.quarry.server.auth.AdmittedSearch admitted =
        io.quarry.server.auth.AdmittedSearch.admit(authenticator, access, query, null)) {
      SearchPlan plan = admitted.plan(() -> request.plan(search, access));
      stream(exchange, format, compression, admitted, query, plan, timeLimit);
    }
  }

  private void stream(
      Exchange exchange,
      ResultEncoder.Format format,
      String compression,
      io.quarry.server.auth.AdmittedSearch admitted,
      String query,
      SearchPlan plan,
      Duration timeLimit)
      throws IOException {
    Exchange.Stream stream =
        exchange.stream(
            HttpResponseStatus.OK,
            format == ResultEncoder.Format.ARROW
                ? format.mediaType
                : format.mediaType + "; charset=UTF-8");
    try (Writer writer = new Writer(format, stream, compression.equals("zstd"))) {
      writer.finish(
          StreamedSearch.run(search, admitted, query, plan, timeLimit, exchange, writer::page));
    }
    stream.finish();
  }

  /** Sends each encoded page as one chunk. */
  private static final class Writer implements AutoCloseable {
    private final ResultEncoder encoder;
    private final Exchange.Stream stream;

    Writer(ResultEncoder.Format format, Exchange.Stream stream, boolean zstd) {
      this.encoder = new ResultEncoder(format, zstd);
      this.stream = stream;
    }

    void page(Page page) throws IOException {
      send(encoder.page(page));
    }

    void finish(SearchStats stats) throws IOException {
      send(encoder.finish(stats.messages()));
    }

    private void send(byte[] chunk) throws IOException {
      if (chunk.length > 0) {
        stream.write(chunk);
      }
    }

    @Override
    public void close() {
      encoder.close();
    }
  }
}
