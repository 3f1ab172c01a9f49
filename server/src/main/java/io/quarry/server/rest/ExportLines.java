package io.quarry.server.rest;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.search.SearchStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * The export endpoint's result lines for one search ({@link SearchExportRoute}): rows encoded by
 * {@link ResultLineEncoder}, the latest row held back so the last one can carry {@code lastrow},
 * sent in pieces of about {@value #FLUSH_BYTES} bytes and at the end of every page.
 *
 * <p>A wide page (at least {@value #PARALLEL_CELLS} cells, e.g. an {@code mstats} of 250 columns)
 * is encoded by two threads: the second half of its rows on the search pool, into an encoder of its
 * own, while the request thread encodes and sends the first half; then the second half's bytes
 * follow. The pool is never waited on to start: a half no pool thread took is encoded by the
 * request thread itself. The bytes are the same either way.
 */
final class ExportLines {
  private static final JsonFactory JSON = new JsonFactory();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Lines are sent once this many bytes are encoded (and at the end of every page). */
  static final int FLUSH_BYTES = 256 * 1024;

  /** A page of at least this many cells (rows × columns) is encoded by two threads. */
  static final int PARALLEL_CELLS = 32 * 1024;

  private final Supplier<Exchange.Stream> opener;
  private final Executor parallel;
  private final ResultLineEncoder lines = new ResultLineEncoder(64 * 1024);
  private ResultLineEncoder side; // the second half of a wide page, encoded on the pool
  private Exchange.Stream stream;
  private Page heldPage;
  private int heldPosition;
  private long offset;

  /**
   * @param opener starts the response (its status line) on the first bytes sent
   * @param parallel where the second half of a wide page is encoded; null: all on the caller
   */
  ExportLines(Supplier<Exchange.Stream> opener, Executor parallel) {
    this.opener = opener;
    this.parallel = parallel;
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

  /** Writes the rows of {@code page}, holding back its last one. */
  void page(Page page) throws IOException {
    int count = page.positionCount();
    if (count == 0) {
      flush();
      return;
    }
    if (heldPage != null) {
      lines.row(heldPage, heldPosition, offset++, false);
    }
    int now = count - 1; // the rows written now; the last is held
    if (parallel != null && (long) now * page.schema().size() >= PARALLEL_CELLS) {
      int half = now / 2;
      FutureTask<ResultLineEncoder> later = secondHalf(page, half, now, offset + half);
      try {
        parallel.execute(later);
      } catch (RejectedExecutionException shutDown) {
        // encoded below by this thread
      }
      encode(page, 0, half);
      later.run(); // nothing when a pool thread started it
      ResultLineEncoder encoded;
      try {
        encoded = later.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while encoding results", e);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof RuntimeException runtime
            ? runtime
            : new IllegalStateException(e.getCause());
      }
      flush();
      send(encoded);
    } else {
      encode(page, 0, now);
    }
    offset += now;
    heldPage = page;
    heldPosition = count - 1;
    flush();
  }

  /** Rows {@code [from, to)} of {@code page} into the caller's encoder, sent as it fills. */
  private void encode(Page page, int from, int to) throws IOException {
    for (int position = from; position < to; position++) {
      lines.row(page, position, offset + position, false);
      if (lines.size() >= FLUSH_BYTES) {
        flush(); // a wide page's lines go out in pieces: no buffer grown to the page's size
      }
    }
  }

  private FutureTask<ResultLineEncoder> secondHalf(Page page, int from, int to, long firstOffset) {
    if (side == null) {
      side = new ResultLineEncoder(FLUSH_BYTES);
    }
    ResultLineEncoder encoder = side;
    return new FutureTask<>(
        () -> {
          encoder.reset();
          for (int position = from; position < to; position++) {
            encoder.row(page, position, firstOffset + position - from, false);
          }
          return encoder;
        });
  }

  /**
   * Ends the lines of a search that failed after they began: the held row (without {@code lastrow}:
   * the results are not complete), then Splunk's {@code FATAL} message with Quarry's typed error
   * beside it.
   */
  void fail(ApiException error) throws IOException {
    if (heldPage != null) {
      lines.row(heldPage, heldPosition, offset++, false);
      heldPage = null;
    }
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    try (JsonGenerator json = JSON.createGenerator(message, JsonEncoding.UTF8)) {
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
    message.write('\n');
    lines.append(message.toByteArray(), 0, message.size());
    flush();
  }

  /**
   * The last row, with {@code lastrow}, then a line with the search's warnings when it has any, as
   * Splunk's export ends: {@code {"preview":false,"messages":[…]}}. With {@code costs} (the
   * Quarry-only {@code quarry_costs=true}) that line is always there and carries the search's costs
   * too: {@code {"preview":false,["messages":[…],]"costs":{…}}} (no {@code result}, so Splunk's
   * readers, which take rows from {@code result} and messages from {@code messages}, pass over it).
   */
  void finish(SearchStats stats, boolean costs) throws IOException {
    if (heldPage != null) {
      lines.row(heldPage, heldPosition, offset++, true);
      heldPage = null;
    }
    if (costs || !stats.messages().isEmpty()) {
      ByteArrayOutputStream message = new ByteArrayOutputStream();
      try (JsonGenerator json = JSON.createGenerator(message, JsonEncoding.UTF8)) {
        json.setCodec(MAPPER);
        json.writeStartObject();
        json.writeBooleanField("preview", false);
        if (!stats.messages().isEmpty()) {
          json.writeArrayFieldStart("messages");
          for (String text : stats.messages()) {
            json.writeStartObject();
            json.writeStringField("type", "WARN");
            json.writeStringField("text", text);
            json.writeEndObject();
          }
          json.writeEndArray();
        }
        if (costs) {
          json.writeObjectField("costs", JobCosts.brief(stats));
        }
        json.writeEndObject();
      }
      message.write('\n');
      lines.append(message.toByteArray(), 0, message.size());
    }
    flush();
  }

  private void flush() throws IOException {
    send(lines);
  }

  /** Sends what {@code encoder} holds (a copy: the stream writes asynchronously) and resets it. */
  private void send(ResultLineEncoder encoder) throws IOException {
    if (encoder.size() > 0) {
      byte[] chunk = Arrays.copyOf(encoder.bytes(), encoder.size());
      encoder.reset();
      stream().write(chunk);
    }
  }
}
