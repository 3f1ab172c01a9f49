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
 * the server. Warnings come with the end of the stream ({@link #messages}).
 */
public final class ResultStream implements Iterator<TypedResults>, Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final InputStream body;
  private final JsonParser parser;
  private TypedResults next;
  private long offset;
  private boolean ended;
  private final List<String> messages = new ArrayList<>();

  ResultStream(InputStream body) throws IOException {
    this.body = body;
    this.parser = JSON.getFactory().createParser(body);
    expect(JsonToken.START_OBJECT);
    expectField("pages");
    expect(JsonToken.START_ARRAY);
  }

  @Override
  public boolean hasNext() {
    if (next == null && !ended) {
      next = read();
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

  /** The search's warnings; complete once every page was read. */
  public List<String> messages() {
    return List.copyOf(messages);
  }

  private TypedResults read() {
    try {
      JsonToken token = parser.nextToken();
      if (token == JsonToken.END_ARRAY) {
        ended = true;
        if (parser.nextToken() == JsonToken.FIELD_NAME && "messages".equals(parser.currentName())) {
          parser.nextToken();
          for (JsonNode message : (JsonNode) JSON.readTree(parser)) {
            messages.add(message.asText());
          }
        }
        close();
        return null;
      }
      JsonNode page = JSON.readTree(parser);
      List<TypedResults.Column> columns = new ArrayList<>();
      for (JsonNode field : page.path("fields")) {
        columns.add(
            new TypedResults.Column(field.path("name").asText(), field.path("type").asText()));
      }
      List<List<Object>> rows = new ArrayList<>();
      for (JsonNode row : page.path("rows")) {
        List<Object> values = new ArrayList<>(row.size());
        for (JsonNode value : row) {
          values.add(JSON.convertValue(value, Object.class));
        }
        rows.add(values);
      }
      TypedResults results = new TypedResults(columns, rows, offset, offset + rows.size(), true);
      offset += rows.size();
      return results;
    } catch (IOException e) {
      throw new UncheckedIOException("reading the result stream failed: " + e.getMessage(), e);
    }
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

  /** Stops reading; before the end this cancels the search on the server. */
  @Override
  public void close() {
    ended = true;
    try {
      parser.close();
      body.close();
    } catch (IOException e) {
      // closing a finished or broken stream
    }
  }
}
