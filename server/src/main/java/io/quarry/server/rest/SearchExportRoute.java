package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /services/search/jobs/export}, as Splunk serves it with {@code output_mode=json}: one
 * JSON object per line, {@code {"preview":false,"offset":N,"result":{…}}}, the last one with {@code
 * "lastrow":true}, streamed page by page as the search produces them. Values are text, a multivalue
 * an array of texts, as Splunk writes them. Parameters come from the form body or the query string:
 * {@code search}, {@code output_mode}, {@code earliest_time}, {@code latest_time}. A search that
 * fails after the first line ends with a {@code FATAL} message line ({@link StreamFailure}).
 */
public final class SearchExportRoute {
  private static final JsonFactory JSON = new JsonFactory();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Authenticator authenticator;
  private final SearchService search;

  public SearchExportRoute(Authenticator authenticator, SearchService search) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.search = requireNonNull(search, "search is null");
  }

  public void register(Router router) {
    for (String path :
        List.of(
            "/services/search/jobs/export",
            "/services/search/v2/jobs/export",
            "/servicesNS/{owner}/{app}/search/jobs/export",
            "/servicesNS/{owner}/{app}/search/v2/jobs/export")) {
      router.add(HttpMethod.POST, path, SplunkErrors.splunk(this::export, true));
      router.add(HttpMethod.GET, path, SplunkErrors.splunk(this::export, true));
    }
  }

  private void export(Exchange exchange) throws IOException {
    io.quarry.server.auth.Access access =
        authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Search");
    String query = exchange.parameter("search");
    if (query == null || query.isBlank()) {
      throw ApiException.badRequest(
          "MISSING_PARAMETER", "The 'search' parameter is required (the SPL query to run)");
    }
    String outputMode = exchange.parameter("output_mode");
    if (outputMode != null && !outputMode.toLowerCase(Locale.ROOT).equals("json")) {
      throw ApiException.badRequest(
          "UNSUPPORTED_OUTPUT_MODE",
          "output_mode '"
              + outputMode
              + "' is not supported on this endpoint; use output_mode=json");
    }
    java.time.Duration timeLimit = maxTime(exchange.parameter("max_time"));
    if (timeLimit == null) {
      timeLimit = search.maxTime();
    }
    // admitted before planning: subsearches run while the query is planned
    try (io.quarry.server.auth.AdmittedSearch admitted =
        io.quarry.server.auth.AdmittedSearch.admit(authenticator, access, query, null)) {
      SearchPlan plan =
          admitted.plan(
              () ->
                  SearchRequest.plan(
                      search,
                      access,
                      query,
                      exchange.parameter("earliest_time"),
                      exchange.parameter("latest_time")));
      if ("true".equalsIgnoreCase(exchange.parameter("explain"))) {
        exchange.json(HttpResponseStatus.OK, java.util.Map.of("explain", search.explain(plan)));
        return;
      }
      // the response starts with the first line written, so a search that fails before producing
      // anything (a bad lookup, a failing plugin) still answers with a status and an error body
      LineWriter lines =
          new LineWriter(
              () -> exchange.stream(HttpResponseStatus.OK, "application/json; charset=UTF-8"));
      SearchStats stats;
      try {
        stats = StreamedSearch.run(search, admitted, query, plan, timeLimit, exchange, lines::page);
      } catch (RuntimeException failure) {
        if (!lines.started()) {
          throw failure; // answered in Splunk's shape with its status (SplunkErrors)
        }
        ApiException error = StreamFailure.typed(exchange.path(), failure);
        lines.fail(error);
        lines.stream().finishWithError(error.status());
        return;
      }
      lines.finish(stats);
      lines.stream().finish();
    }
  }

  /**
   * Splunk's {@code max_time} parameter: a positive number of seconds, or null when absent or 0 (no
   * limit of its own: the server's maximum applies).
   */
  static java.time.Duration maxTime(String maxTime) {
    if (maxTime == null || maxTime.isBlank() || maxTime.strip().equals("0")) {
      return null;
    }
    try {
      double seconds = Double.parseDouble(maxTime.strip());
      if (!(seconds > 0) || Double.isInfinite(seconds)) {
        throw new NumberFormatException();
      }
      return java.time.Duration.ofNanos((long) Math.min(Long.MAX_VALUE, Math.ceil(seconds * 1e9)));
    } catch (NumberFormatException e) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER",
          "max_time must be a positive number of seconds, not '" + maxTime + "'");
    }
  }

  /** Writes result lines, holding back the latest row so the last one can carry {@code lastrow}. */
  private static final class LineWriter {
    private final java.util.function.Supplier<Exchange.Stream> opener;
    private Exchange.Stream stream;

    /** Lines are sent once this many bytes are buffered (and at the end of every page). */
    private static final int FLUSH_BYTES = 256 * 1024;

    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
    private Page heldPage;
    private final SplunkNumberText numbers = new SplunkNumberText();
    private io.quarry.plugin.api.data.Schema namesOf;
    private com.fasterxml.jackson.core.io.SerializedString[] names;
    private int heldPosition;
    private long offset;

    LineWriter(java.util.function.Supplier<Exchange.Stream> opener) {
      this.opener = opener;
    }

    /** The response stream, started on first use. */
    Exchange.Stream stream() {
      if (stream == null) {
        stream = opener.get();
      }
      return stream;
    }

    /** Whether any line (and so the status line) has been sent. */
    boolean started() {
      return stream != null;
    }

    /**
     * Ends the lines of a search that failed after they began: the held row (without {@code
     * lastrow}: the results are not complete), then Splunk's {@code FATAL} message with Quarry's
     * typed error beside it.
     */
    void fail(ApiException error) throws IOException {
      if (heldPage != null) {
        writeRow(heldPage, heldPosition, false);
        heldPage = null;
      }
      try (JsonGenerator json = JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
        json.setCodec(MAPPER);
        json.writeStartObject();
        json.writeBooleanField("preview", false);
        json.writeArrayFieldStart("messages");
        json.writeStartObject();
        json.writeStringField("type", "FATAL");
        json.writeStringField("text", error.getMessage());
        json.writeEndObject();
        json.writeEndArray();
        json.writeObjectField("error", error.body().get("error"));
        json.writeEndObject();
      }
      buffer.write('\n');
      flush();
    }

    void page(Page page) throws IOException {
      for (int position = 0; position < page.positionCount(); position++) {
        if (heldPage != null) {
          writeRow(heldPage, heldPosition, false);
          if (buffer.size() >= FLUSH_BYTES) {
            flush(); // a wide page's lines go out in pieces: no buffer grown to the page's size
          }
        }
        heldPage = page;
        heldPosition = position;
      }
      flush();
    }

    void finish(SearchStats stats) throws IOException {
      if (heldPage != null) {
        writeRow(heldPage, heldPosition, true);
      }
      if (!stats.messages().isEmpty()) {
        try (JsonGenerator json = JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
          json.writeStartObject();
          json.writeBooleanField("preview", false);
          json.writeArrayFieldStart("messages");
          for (String message : stats.messages()) {
            json.writeStartObject();
            json.writeStringField("type", "WARN");
            json.writeStringField("text", message);
            json.writeEndObject();
          }
          json.writeEndArray();
          json.writeEndObject();
        }
        buffer.write('\n');
      }
      flush();
    }

    private void writeRow(Page page, int position, boolean last) throws IOException {
      try (JsonGenerator json = JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
        json.writeStartObject();
        json.writeBooleanField("preview", false);
        json.writeNumberField("offset", offset++);
        if (last) {
          json.writeBooleanField("lastrow", true);
        }
        json.writeObjectFieldStart("result");
        com.fasterxml.jackson.core.io.SerializedString[] names = names(page.schema());
        for (int column = 0; column < names.length; column++) {
          io.quarry.plugin.api.data.Block block = page.block(column);
          if (block instanceof io.quarry.plugin.api.data.DoubleBlock doubles
              && block.getValueCount(position) == 1) {
            // a number's text straight into the output: no String per value, nothing to escape
            numbers.quoted(doubles.getDoubleValue(block.getFirstValueIndex(position)));
            json.writeFieldName(names[column]);
            json.writeRawValue(numbers.chars(), 0, numbers.length());
            continue;
          }
          Object value = ResultValues.splunk(block, position);
          if (value instanceof String text) {
            json.writeFieldName(names[column]);
            json.writeString(text);
          } else if (value instanceof List<?> multivalue) { // Splunk's multivalue: an array
            json.writeFieldName(names[column]);
            json.writeStartArray();
            for (Object one : multivalue) {
              json.writeString((String) one);
            }
            json.writeEndArray();
          }
        }
        json.writeEndObject();
        json.writeEndObject();
      }
      buffer.write('\n');
    }

    /** The schema's column names, encoded once for all the rows of its pages. */
    private com.fasterxml.jackson.core.io.SerializedString[] names(
        io.quarry.plugin.api.data.Schema schema) {
      if (schema != namesOf) {
        namesOf = schema;
        names = new com.fasterxml.jackson.core.io.SerializedString[schema.size()];
        for (int column = 0; column < names.length; column++) {
          names[column] =
              new com.fasterxml.jackson.core.io.SerializedString(schema.column(column).name());
        }
      }
      return names;
    }

    private void flush() throws IOException {
      if (buffer.size() > 0) {
        stream().write(buffer.toByteArray());
        buffer.reset();
      }
    }
  }
}
