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
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.lookups.Csv;
import io.quarry.server.search.SearchService;
import io.quarry.server.search.SearchStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /api/v1/search}: runs a query and streams its typed results as they are produced, one
 * HTTP chunk per result page, in the format the {@code Accept} header asks for:
 *
 * <ul>
 *   <li>{@code application/json} (default): {@code {"pages":[{"fields":[{"name","type"}],
 *       "rows":[[…]]}, …], "messages":[…]}} — the schema travels with every page, since a search
 *       over events can find new fields as it goes;
 *   <li>{@code application/x-ndjson}: one JSON object per row, typed values;
 *   <li>{@code text/csv}: a header from the first page's columns, then one line per row (a column a
 *       later page adds is left out: use {@code | table} to fix the columns).
 * </ul>
 *
 * The body is {@code {"query", "earliest", "latest", "timeout"}}. A slow client slows the search
 * (the stream waits while the socket is full); a client that disconnects cancels it.
 */
public final class SearchStreamRoute {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();

  private final Authenticator authenticator;
  private final SearchService search;

  public SearchStreamRoute(Authenticator authenticator, SearchService search) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.search = requireNonNull(search, "search is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.POST, "/api/v1/search", this::stream);
  }

  /** The formats this route writes. */
  enum Format {
    JSON("application/json"),
    NDJSON("application/x-ndjson"),
    CSV("text/csv"),
    ARROW("application/vnd.apache.arrow.stream");

    final String mediaType;

    Format(String mediaType) {
      this.mediaType = mediaType;
    }

    /** The first supported type of an Accept header; JSON for none or {@code *}/{@code *}. */
    static Format negotiate(String accept) {
      if (accept == null || accept.isBlank()) {
        return JSON;
      }
      for (String part : accept.split(",")) {
        String type = part.split(";")[0].strip().toLowerCase(Locale.ROOT);
        for (Format format : values()) {
          if (format.mediaType.equals(type)) {
            return format;
          }
        }
        if (type.equals("*/*") || type.equals("application/*")) {
          return JSON;
        }
      }
      throw new ApiException(
          HttpResponseStatus.NOT_ACCEPTABLE,
          "NOT_ACCEPTABLE",
          "Cannot answer with '"
              + accept
              + "'; results come as application/json, application/x-ndjson, text/csv or"
              + " application/vnd.apache.arrow.stream");
    }
  }

  private void stream(Exchange exchange) throws IOException {
    authenticator.requireAdmin(exchange.header(HttpHeaderNames.AUTHORIZATION), "Search");
    Format format = Format.negotiate(exchange.header(HttpHeaderNames.ACCEPT));
    SearchRequest request = SearchRequest.read(exchange);
    SearchPlan plan = request.plan(search);
    Duration timeLimit = request.seconds("timeout", search.maxTime());
    String query = request.query();
    String compression = request.text("compression") == null ? "none" : request.text("compression");
    if (!compression.equals("none") && !compression.equals("zstd")) {
      throw ApiException.badRequest(
          "INVALID_PARAMETER", "'compression' must be none or zstd, not '" + compression + "'");
    }
    Exchange.Stream stream =
        exchange.stream(
            HttpResponseStatus.OK,
            format == Format.ARROW ? format.mediaType : format.mediaType + "; charset=UTF-8");
    try (Writer writer = new Writer(format, stream, compression.equals("zstd"))) {
      run(query, plan, timeLimit, writer);
    }
    stream.finish();
  }

  private void run(String query, SearchPlan plan, Duration timeLimit, Writer writer)
      throws IOException {
    writer.finish(StreamedSearch.run(search, query, plan, timeLimit, writer::page));
  }

  /** Encodes pages in one format into chunks. */
  private static final class Writer implements AutoCloseable {
    private final Format format;
    private final Exchange.Stream stream;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
    private final ArrowStreamEncoder arrow;
    private boolean first = true;
    private List<String> csvColumns;

    Writer(Format format, Exchange.Stream stream, boolean zstd) {
      this.format = format;
      this.stream = stream;
      this.arrow = format == Format.ARROW ? new ArrowStreamEncoder(zstd) : null;
    }

    @Override
    public void close() {
      if (arrow != null) {
        arrow.close();
      }
    }

    void page(Page page) throws IOException {
      switch (format) {
        case JSON -> jsonPage(page);
        case NDJSON -> ndjsonPage(page);
        case CSV -> csvPage(page);
        case ARROW -> buffer.write(arrow.page(page));
      }
      first = false;
      flush();
    }

    private void jsonPage(Page page) throws IOException {
      buffer.write(
          (first ? "{\"pages\":[" : ",").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      try (JsonGenerator json = FACTORY.createGenerator(buffer, JsonEncoding.UTF8)) {
        json.setCodec(JSON);
        json.writeStartObject();
        json.writeArrayFieldStart("fields");
        for (Schema.Column column : page.schema().columns()) {
          json.writeStartObject();
          json.writeStringField("name", column.name());
          json.writeStringField("type", column.type().wireName());
          json.writeEndObject();
        }
        json.writeEndArray();
        json.writeArrayFieldStart("rows");
        for (int position = 0; position < page.positionCount(); position++) {
          json.writeStartArray();
          for (int column = 0; column < page.schema().size(); column++) {
            json.writeObject(ResultValues.typed(page.block(column), position));
          }
          json.writeEndArray();
        }
        json.writeEndArray();
        json.writeEndObject();
        json.flush();
      }
    }

    private void ndjsonPage(Page page) throws IOException {
      for (int position = 0; position < page.positionCount(); position++) {
        try (JsonGenerator json = FACTORY.createGenerator(buffer, JsonEncoding.UTF8)) {
          json.setCodec(JSON);
          json.writeStartObject();
          for (int column = 0; column < page.schema().size(); column++) {
            Object value = ResultValues.typed(page.block(column), position);
            if (value != null) {
              json.writeObjectField(page.schema().column(column).name(), value);
            }
          }
          json.writeEndObject();
        }
        buffer.write('\n');
      }
    }

    private void csvPage(Page page) throws IOException {
      if (csvColumns == null) {
        csvColumns = ResultValues.names(page.schema());
        csvLine(csvColumns);
      }
      int[] columns = ResultValues.columns(page.schema(), csvColumns);
      for (int position = 0; position < page.positionCount(); position++) {
        csvLine(ResultValues.texts(page, position, columns));
      }
    }

    private void csvLine(List<String> cells) {
      StringBuilder line = new StringBuilder();
      Csv.line(line, cells);
      buffer.writeBytes(line.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    void finish(SearchStats stats) throws IOException {
      if (format == Format.JSON) {
        try (JsonGenerator json = FACTORY.createGenerator(buffer, JsonEncoding.UTF8)) {
          if (first) {
            json.writeRaw("{\"pages\":[");
          }
          json.writeRaw("],\"messages\":");
          json.setCodec(JSON);
          json.writeObject(stats.messages());
          json.writeRaw("}");
        }
      } else if (format == Format.ARROW) {
        buffer.write(arrow.finish());
      } else if (format == Format.CSV && csvColumns == null) {
        csvLine(List.of()); // an empty result is an empty header line
      }
      flush();
    }

    private void flush() throws IOException {
      if (buffer.size() > 0) {
        stream.write(buffer.toByteArray());
        buffer.reset();
      }
    }
  }
}
