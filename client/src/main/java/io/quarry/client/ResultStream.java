package io.quarry.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The typed result pages of a search as the server streams them ({@code POST /api/v1/search}), one
 * {@link TypedResults} per page of up to 1,024 rows, read as they arrive: memory holds one page,
 * and a slow reader slows the search down. Closing the stream before the end cancels the search on
 * the server.
 *
 * <p>Two wire formats ({@link QuarryClient.StreamFormat}): Quarry's JSON pages, where each page
 * names its own columns and multivalues arrive as lists, and warnings come with the end of the
 * stream ({@link #messages}), and a search that fails after its first pages throws a {@link
 * QuarryClientException} naming the error instead of ending; or an Apache Arrow IPC stream, more
 * compact and cheaper to decode, whose one schema comes from the first 10,000 rows (a column that
 * first appears after them is left out, and the server logs it; use {@code | table} or an
 * aggregation for a fixed set of columns), multivalues arrive as lists too (a column with
 * multivalues among those rows is an Arrow list column; a later multivalue in a column without any
 * there is sent as null and logged), and there are no warnings. The JSON stream ends with what the
 * search cost ({@link #costs}); the Arrow stream has no place for them.
 */
public final class ResultStream implements Iterator<TypedResults>, Closeable {
  /** Where pages come from: one reader per wire format. */
  interface PageReader extends Closeable {
    /** The next page, or null at the end. */
    TypedResults next() throws IOException;

    /** Warnings, complete at the end. */
    List<String> messages();

    /** What the search cost, once read at the end; null before or where the format has none. */
    default SearchCosts costs() {
      return null;
    }
  }

  private final PageReader reader;
  private TypedResults next;
  private boolean ended;

  ResultStream(PageReader reader) {
    this.reader = reader;
  }

  @Override
  public boolean hasNext() {
    if (next == null && !ended) {
      try {
        next = reader.next();
      } catch (IOException e) {
        close();
        throw new UncheckedIOException("reading the result stream failed: " + e.getMessage(), e);
      } catch (QuarryClientException searchFailed) {
        close();
        throw searchFailed;
      }
      if (next == null) {
        close();
      }
    }
    return next != null;
  }

  @Override
  public TypedResults next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    TypedResults page = next;
    next = null;
    return page;
  }

  /** The search's warnings; complete once every page was read (none in the Arrow format). */
  public List<String> messages() {
    return reader.messages();
  }

  /**
   * What the search cost (events read and matched, rows, elapsed and CPU milliseconds), once every
   * page was read in the JSON format; empty before, and always in the Arrow format, which has no
   * place for them (read {@code /api/v1/jobs/{id}/inspect} of a search job instead).
   */
  public java.util.Optional<SearchCosts> costs() {
    return java.util.Optional.ofNullable(reader.costs());
  }

  /** Stops reading; before the end this cancels the search on the server. */
  @Override
  public void close() {
    ended = true;
    try {
      reader.close();
    } catch (IOException e) {
      // closing a finished or broken stream
    }
  }

  /**
   * Quarry's JSON stream: {@code {"pages":[{"fields":[…],"rows":[…]}, …], "messages":[…],
   * "costs":{…}}}.
   */
  static final class JsonPages implements PageReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final InputStream body;
    private final JsonParser parser;
    private final List<String> messages = new ArrayList<>();
    private SearchCosts costs;
    private long offset;

    JsonPages(InputStream body) throws IOException {
      this.body = body;
      this.parser = JSON.getFactory().createParser(body);
      expect(JsonToken.START_OBJECT);
      expectField("pages");
      expect(JsonToken.START_ARRAY);
    }

    @Override
    public TypedResults next() throws IOException {
      JsonToken token = parser.nextToken();
      if (token == JsonToken.END_ARRAY) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          JsonNode value = JSON.readTree(parser);
          if (name.equals("messages")) {
            value.forEach(message -> messages.add(message.asText()));
          } else if (name.equals("costs")) {
            costs = SearchCosts.fromJson(value);
          } else if (name.equals("error")) {
            // the search failed after the stream began (docs/api.md): the pages read are not all
            throw ServerAnswers.midStreamFailure(value, offset);
          }
        }
        return null;
      }
      if (token == null) {
        throw new IOException("the result stream ended early");
      }
      JsonNode page = JSON.readTree(parser);
      TypedResults results =
          TypedResults.fromJson(page, offset, offset + page.path("rows").size(), true);
      offset += results.rows().size();
      return results;
    }

    @Override
    public List<String> messages() {
      return List.copyOf(messages);
    }

    @Override
    public SearchCosts costs() {
      return costs;
    }

    private void expect(JsonToken expected) throws IOException {
      JsonToken token = parser.nextToken();
      if (token != expected) {
        throw new IOException("unexpected " + token + " in the result stream, wanted " + expected);
      }
    }

    private void expectField(String name) throws IOException {
      expect(JsonToken.FIELD_NAME);
      if (!name.equals(parser.currentName())) {
        throw new IOException("unexpected field " + parser.currentName() + ", wanted " + name);
      }
    }

    @Override
    public void close() throws IOException {
      parser.close();
      body.close();
    }
  }
}
