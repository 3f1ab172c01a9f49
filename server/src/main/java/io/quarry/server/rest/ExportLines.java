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
 * <p>A page holding enough work (at least {@value #PARALLEL_WORK} units, a unit being a cell or a
 * line's own frame: rows × (columns + 1)) is encoded by two threads: the second half of its rows on
 * the search pool, into an encoder of its own, while the request thread encodes and sends the first
 * half; then the second half's bytes follow. So both a wide page (an {@code mstats} of 250 columns)
 * and a long narrow one (a {@code stats … by} of 1,024 rows × 2–3 columns) are split, and an answer
 * of a few rows never pays a hand-off. The pool is never waited on to start: a half no pool thread
 * took is encoded by the request thread itself. The bytes are the same either way.
 *
 * <p>Why {@value #PARALLEL_WORK}: a unit costs ~60 ns to encode (RESULTS.md, session of the
 * hand-written encoder: a 1,024 × 250 page of doubles in 16.4 ms), so the smallest page split holds
 * ~120 µs of encoding, ~60 µs a half; a hand-off costs the request thread a task and a queue offer
 * (a few µs) and the pool thread its wake-up and two thread-CPU reads ({@code SearchCpu}), tens of
 * µs on a busy machine, which the request thread spends encoding its own half, not waiting. A
 * 1,024-row page of 2 columns holds 3,069 units, of 3 columns 4,092; a page of 1,023 rows of one
 * column (2,046) and anything of a few rows stay on the request thread.
 */
final class ExportLines {
  private static final JsonFactory JSON = new JsonFactory();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Lines are sent once this many bytes are encoded (and at the end of every page). */
  static final int FLUSH_BYTES = 256 * 1024;

  /**
   * A page of at least this much work, rows × (columns + 1) — a cell each, and one for the line's
   * own {@code preview}, {@code offset} and braces — is encoded by two threads.
   */
  static final int PARALLEL_WORK = 2_048;

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
    if (parallel != null && splits(now, page.schema().size())) {
      int half = now / 2;
      FutureTask<ResultLineEncoder> later = secondHalf(page, half, now, offset + half);
      try {
        parallel.execute(later);
      } catch (RejectedExecutionException shutDown) {
        // encoded below by this thread
      }
      encode(page, 0, half);
      flush(); // the first half goes out while the pool may still be encoding the second
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
      send(encoded);
    } else {
      encode(page, 0, now);
    }
    offset += now;
    heldPage = page;
    heldPosition = count - 1;
    flush();
  }

  /**
   * Whether {@code rows} rows of {@code columns} columns are worth two threads: their work, rows ×
   * (columns + 1), is at least {@link #PARALLEL_WORK}.
   */
  static boolean splits(int rows, int columns) {
    return (long) rows * (columns + 1) >= PARALLEL_WORK;
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
