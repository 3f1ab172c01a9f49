package io.quarry.server.rest;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.http.ApiException;
import io.quarry.server.lookups.Csv;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Result pages as bytes in one wire format, one call per page, with no HTTP in sight (the streaming
 * route sends each call's bytes as one chunk; the wire benchmark measures them):
 *
 * <ul>
 *   <li>JSON: {@code {"pages":[{"fields":[{"name","type"}],"rows":[[…]]}, …],"messages":[…],
 *       "costs":{…}}} (costs where the caller gives them: the streaming route's search's) — the
 *       schema travels with every page, since a search over events can find new fields as it goes;
 *   <li>NDJSON: one JSON object per row, typed values, nulls left out, and a last line with the
 *       costs and messages where the caller gives costs (the streaming route only when the request
 *       asks: {@code "costs": true});
 *   <li>CSV: a header, then one line per row;
 *   <li>Arrow IPC stream: see {@link ArrowStreamEncoder}.
 * </ul>
 *
 * <p>A multivalue is a JSON array of typed values in JSON and NDJSON, one cell of its values joined
 * by newlines in CSV (as Splunk's CSV output), an Arrow list (see {@link ArrowStreamEncoder}).
 *
 * <p>A result column has one type for the whole result, whatever the pages it comes in: every
 * format holds the first rows back until {@link StreamSchema} has fixed the columns' types from
 * them (a page of nulls says nothing; a double block of whole numbers says long, since a whole
 * number is held as a double only where it shares a page with a fraction; long and double make
 * double, other mixes text). JSON and NDJSON then send each page's columns in those types (a long
 * as a double, a whole double as a long, any value as its text); a column first seen past the
 * sample, or a value past it its column's type cannot hold, goes as the value it is (a whole number
 * as a long, a fraction as a double, text as text; JSON names the page's type), so a row is written
 * the same wherever the pages part; every value of a JSON page's column is written in the type the
 * page names for it (a column mixing numbers and text there, a string one, writes its numbers as
 * their text). CSV and Arrow have one schema for the whole stream, the same one, and log what a
 * later page brings that does not fit.
 */
public final class ResultEncoder implements AutoCloseable {
  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(ResultEncoder.class.getName());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();

  /** The wire formats, by media type. */
  public enum Format {
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

  private final Format format;
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64 * 1024);
  private final ArrowStreamEncoder arrow;
  private boolean first = true; // JSON: no page written yet

  /** The sample that fixes each column's one type (CSV's and Arrow's one schema). */
  private final StreamSchema oneSchema;

  /** The columns' types fixed from the sample (JSON, NDJSON), null until then. */
  private java.util.Map<String, DataType> types;

  private boolean schemaFixed;
  private List<String> csvColumns;

  /**
   * @param zstd whether Arrow buffers are zstd-compressed (ignored by the text formats)
   */
  public ResultEncoder(Format format, boolean zstd) {
    this.format = format;
    this.arrow = format == Format.ARROW ? new ArrowStreamEncoder(zstd) : null;
    this.oneSchema = new StreamSchema();
    if (format == Format.JSON || format == Format.NDJSON) {
      oneSchema.wholeDoublesAsLong(); // a later fraction goes as itself: nothing lost
    }
  }

  /**
   * The bytes of one page (none while the first rows are held; then, for CSV and Arrow, the header
   * or schema, and every held row).
   */
  public byte[] page(Page page) throws IOException {
    if (schemaFixed) {
      oneSchemaPage(page);
    } else if (oneSchema.add(page)) {
      fixSchema();
    }
    return take();
  }

  /** Writes the header or schema fixed from the held rows, then those rows. */
  private void fixSchema() throws IOException {
    schemaFixed = true;
    if (format == Format.JSON || format == Format.NDJSON) {
      types = oneSchema.types(); // a column of nulls there: no type fixed
      for (Page held : oneSchema.pages()) {
        oneSchemaPage(held);
      }
      oneSchema.release();
      return;
    }
    if (format == Format.ARROW) {
      buffer.write(arrow.start(oneSchema));
      return;
    }
    csvColumns = ResultValues.names(oneSchema.schema());
    csvLine(csvColumns);
    for (Page held : oneSchema.pages()) {
      oneSchemaPage(held);
    }
    oneSchema.release();
  }

  private void oneSchemaPage(Page page) throws IOException {
    if (format == Format.JSON) {
      jsonPage(page);
    } else if (format == Format.NDJSON) {
      ndjsonPage(page);
    } else if (format == Format.ARROW) {
      buffer.write(arrow.page(page));
    } else {
      csvPage(page);
    }
  }

  /** The bytes that end the stream, with the search's messages where the format has room. */
  public byte[] finish(List<String> messages) throws IOException {
    return finish(messages, null);
  }

  /**
   * The bytes that end the stream, with the search's messages and {@code costs} (null: none) where
   * the format has room: JSON's {@code "costs"} member after {@code "messages"}; NDJSON's last line
   * {@code {"costs":{…},"messages":[…]}} when there are costs (never a row: a row's values are
   * scalars or arrays, as its error line; without costs no such line, since {@code
   * {"messages":[…]}} alone could be a row); CSV and Arrow have none (docs/api.md says why).
   */
  public byte[] finish(List<String> messages, java.util.Map<String, Object> costs)
      throws IOException {
    if (!schemaFixed) {
      oneSchema.wholeDoublesAsLong(); // every row is held: no later fraction to lose
      fixSchema(); // a short result: every row was held (none at all: an empty header line)
    }
    if (format == Format.JSON) {
      try (JsonGenerator json = FACTORY.createGenerator(buffer, JsonEncoding.UTF8)) {
        if (first) {
          json.writeRaw("{\"pages\":[");
        }
        json.writeRaw("],\"messages\":");
        json.setCodec(JSON);
        json.writeObject(messages);
        if (costs != null) {
          json.writeRaw(",\"costs\":");
          json.writeObject(costs);
        }
        json.writeRaw("}");
      }
    } else if (format == Format.NDJSON) {
      if (costs != null) {
        try (JsonGenerator json = FACTORY.createGenerator(buffer, JsonEncoding.UTF8)) {
          json.setCodec(JSON);
          json.setRootValueSeparator(null);
          json.writeRaw("{\"costs\":");
          json.writeObject(costs);
          json.writeRaw(",\"messages\":");
          json.writeObject(messages);
          json.writeRaw("}\n");
        }
      }
    } else if (format == Format.CSV || format == Format.ARROW) {
      if (format == Format.ARROW) {
        buffer.write(arrow.finish());
      }
      String misfits = oneSchema.misfits();
      if (misfits != null) {
        LOG.warning(format + " result: " + misfits);
      }
    }
    return take();
  }

  /** Whether the format can carry an error after results have been sent (JSON and NDJSON). */
  public boolean carriesErrors() {
    return format == Format.JSON || format == Format.NDJSON;
  }

  /**
   * Whether rows are held back for the type sample (nothing of them sent yet): a search failing now
   * still has an answer to give in a format that {@linkplain #carriesErrors carries errors} — the
   * held rows, then the error.
   */
  public boolean holdsRows() {
    return !schemaFixed && !oneSchema.pages().isEmpty();
  }

  /**
   * The bytes that end a stream whose search failed (see {@link StreamFailure}): JSON closes its
   * document with an {@code "error"} member, NDJSON writes the error as a last line.
   *
   * @param error the error's body, {@code {"error":{"code","message",…}}}
   * @throws IllegalStateException for CSV and Arrow, which have no room for one
   */
  public byte[] error(java.util.Map<String, Object> error) throws IOException {
    if (!carriesErrors()) {
      throw new IllegalStateException(format + " has no room for an error");
    }
    if (!schemaFixed) {
      oneSchema.wholeDoublesAsLong(); // no row comes after the error
      fixSchema(); // the rows held for the type sample go first, as they would have streamed
    }
    try (JsonGenerator json = FACTORY.createGenerator(buffer, JsonEncoding.UTF8)) {
      json.setCodec(JSON);
      if (format == Format.JSON) {
        json.writeRaw(first ? "{\"pages\":[" : "");
        json.writeRaw("],\"messages\":[],\"error\":");
        json.writeObject(error.get("error"));
        json.writeRaw("}");
      } else {
        json.writeObject(error);
        json.writeRaw('\n');
      }
    }
    return take();
  }

  private byte[] take() {
    byte[] bytes = buffer.toByteArray();
    buffer.reset();
    return bytes;
  }

  private void jsonPage(Page page) throws IOException {
    buffer.write((first ? "{\"pages\":[" : ",").getBytes(StandardCharsets.UTF_8));
    first = false;
    DataType[] one = oneTypes(page);
    DataType[] sent = sentTypes(page, one);
    try (JsonGenerator json = FACTORY.createGenerator(buffer, JsonEncoding.UTF8)) {
      json.setCodec(JSON);
      json.writeStartObject();
      json.writeArrayFieldStart("fields");
      for (int column = 0; column < page.schema().size(); column++) {
        json.writeStartObject();
        json.writeStringField("name", page.schema().column(column).name());
        json.writeStringField("type", sent[column].wireName());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeArrayFieldStart("rows");
      for (int position = 0; position < page.positionCount(); position++) {
        json.writeStartArray();
        for (int column = 0; column < page.schema().size(); column++) {
          json.writeObject(ResultValues.typedAs(page.block(column), position, sent[column]));
        }
        json.writeEndArray();
      }
      json.writeEndArray();
      json.writeEndObject();
      json.flush();
    }
  }

  /** Each column's one type fixed from the sample, null for a column it fixed none for. */
  private DataType[] oneTypes(Page page) {
    DataType[] one = new DataType[page.schema().size()];
    for (int column = 0; column < one.length; column++) {
      one[column] = types.get(page.schema().column(column).name());
    }
    return one;
  }

  /**
   * The type JSON names for each column of a page: its column's one type where its values fit it,
   * else (past the sample) what the page's values need ({@link ResultValues#valueType}).
   */
  private static DataType[] sentTypes(Page page, DataType[] one) {
    DataType[] sent = new DataType[page.schema().size()];
    for (int column = 0; column < sent.length; column++) {
      Block block = page.block(column);
      sent[column] =
          one[column] != null && ResultValues.fits(block, one[column])
              ? one[column]
              : ResultValues.valueType(block);
    }
    return sent;
  }

  private void ndjsonPage(Page page) throws IOException {
    DataType[] one = oneTypes(page);
    try (JsonGenerator json = FACTORY.createGenerator(buffer, JsonEncoding.UTF8)) {
      json.setCodec(JSON);
      json.setRootValueSeparator(null);
      for (int position = 0; position < page.positionCount(); position++) {
        json.writeStartObject();
        for (int column = 0; column < page.schema().size(); column++) {
          Object value = ResultValues.typedAs(page.block(column), position, one[column]);
          if (value != null) {
            json.writeObjectField(page.schema().column(column).name(), value);
          }
        }
        json.writeEndObject();
        json.writeRaw('\n');
      }
    }
  }

  private void csvPage(Page page) {
    for (int column = 0; column < page.schema().size(); column++) {
      if (!csvColumns.contains(page.schema().column(column).name())) {
        oneSchema.dropped(page.schema().column(column).name(), page.block(column));
      }
    }
    int[] columns = ResultValues.columns(page.schema(), csvColumns);
    StringBuilder lines = new StringBuilder(page.positionCount() * 64);
    for (int position = 0; position < page.positionCount(); position++) {
      Csv.line(lines, ResultValues.texts(page, position, columns));
    }
    buffer.writeBytes(lines.toString().getBytes(StandardCharsets.UTF_8));
  }

  private void csvLine(List<String> cells) {
    StringBuilder line = new StringBuilder();
    Csv.line(line, cells);
    buffer.writeBytes(line.toString().getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    if (arrow != null) {
      arrow.close();
    }
  }
}
