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
import java.util.function.Supplier;

/**
 * {@code POST /api/v1/search}: runs a query and streams its typed results as they are produced, one
 * HTTP chunk per result page, in the format the {@code Accept} header asks for (JSON, NDJSON, CSV
 * or Arrow; see {@link ResultEncoder}).
 *
 * <p>The body is {@code {"query", "earliest", "latest", "timeout", "compression", "costs"}}; {@code
 * "costs": true} ends an NDJSON answer with a line of the search's costs and messages, which it
 * does not have by default (every line a row, as NDJSON readers take it); JSON carries the costs
 * either way, and CSV and Arrow have no room for them (asking for them there is a 400). A slow
 * client slows the search (the stream waits while the socket is full); a client that disconnects
 * cancels it. The status line goes out with the first bytes of the answer: a search that fails
 * before then answers with its error status, one that fails later ends its answer as {@link
 * StreamFailure} says.
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
    boolean costs = request.bool("costs", false);
    if (costs && (format == ResultEncoder.Format.CSV || format == ResultEncoder.Format.ARROW)) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER",
          "'costs' is for application/json and application/x-ndjson; "
              + format.mediaType
              + " has no room for them (run the search as a job and read its inspect instead)");
    }
    // admitted before planning: subsearches run while the query is planned
    try (io.quarry.server.auth.AdmittedSearch admitted =
        io.quarry.server.auth.AdmittedSearch.admit(authenticator, access, query, null)) {
      SearchPlan plan = admitted.plan(() -> request.plan(search, access));
      stream(exchange, format, compression, costs, admitted, query, plan, timeLimit);
    }
  }

  private void stream(
      Exchange exchange,
      ResultEncoder.Format format,
      String compression,
      boolean costs,
      io.quarry.server.auth.AdmittedSearch admitted,
      String query,
      SearchPlan plan,
      Duration timeLimit)
      throws IOException {
    String contentType =
        format == ResultEncoder.Format.ARROW
            ? format.mediaType
            : format.mediaType + "; charset=UTF-8";
    // the response starts with the first bytes written, so a search that fails before producing
    // any (a memory limit in an aggregation, a failing plugin) answers with its status and error
    try (Writer writer =
        new Writer(
            format,
            () -> exchange.stream(HttpResponseStatus.OK, contentType),
            compression.equals("zstd"),
            costs || format == ResultEncoder.Format.JSON)) {
      try {
        StreamedSearch.run(
            search,
            admitted,
            query,
            plan,
            timeLimit,
            exchange,
            writer::page,
            writer::finish,
            false);
      } catch (RuntimeException failure) {
        if (!writer.started()) {
          throw failure;
        }
        writer.fail(StreamFailure.typed(exchange.path(), failure));
      }
    }
  }

  /** Sends each encoded page as one chunk, opening the response with the first. */
  private static final class Writer implements AutoCloseable {
    private final ResultEncoder encoder;
    private final Supplier<Exchange.Stream> opener;
    private final boolean costs;
    private Exchange.Stream stream;

    /**
     * @param costs whether the answer ends with the search's costs (JSON always; NDJSON when asked)
     */
    Writer(
        ResultEncoder.Format format,
        Supplier<Exchange.Stream> opener,
        boolean zstd,
        boolean costs) {
      this.encoder = new ResultEncoder(format, zstd);
      this.opener = opener;
      this.costs = costs;
    }

    /**
     * Whether the answer has begun: bytes (and so the status line) sent, or rows held for the type
     * sample that a format carrying errors will send before the error.
     */
    boolean started() {
      return stream != null || encoder.carriesErrors() && encoder.holdsRows();
    }

    void page(Page page) throws IOException {
      send(encoder.page(page));
    }

    void finish(SearchStats stats) throws IOException {
      send(encoder.finish(stats.messages(), costs ? JobCosts.brief(stats) : null));
      stream().finish();
    }

    /**
     * Ends an answer whose search failed after it began ({@link StreamFailure}): JSON and NDJSON
     * with the error and the body's end; CSV and Arrow by rethrowing it, so the HTTP handler closes
     * the connection without the terminal chunk.
     */
    void fail(ApiException error) throws IOException {
      if (!encoder.carriesErrors()) {
        throw error;
      }
      send(encoder.error(error.body()));
      stream().finishWithError(error.status());
    }

    private void send(byte[] chunk) throws IOException {
      if (chunk.length > 0) {
        stream().write(chunk);
      }
    }

    private Exchange.Stream stream() {
      if (stream == null) {
        stream = opener.get();
      }
      return stream;
    }

    @Override
    public void close() {
      encoder.close();
    }
  }
}
