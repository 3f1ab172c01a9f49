package io.quarry.client;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLContext;

/**
 * A client of one Quarry server. Thread-safe; reuse one instance, and {@link #close} it when done
 * (its idle connections close then).
 *
 * <pre>{@code
 * try (QuarryClient client = QuarryClient.builder(URI.create("http://127.0.0.1:8088"))
 *     .adminPassword(password).hecToken(token).build()) {
 *   client.sendEvents(List.of(Map.of("event", "hello", "sourcetype", "demo")));
 *   SearchResults results = client.search("hello | stats count");
 * }
 * }</pre>
 */
public final class QuarryClient implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClientHttp http;
  private final JobEndpoints jobs;
  private final HecRequests hec;
  private final FileRegionPoster files; // null: not plain http

  private QuarryClient(Builder builder) {
    Duration connectTimeout = builder.connectTimeout;
    SSLContext sslContext = builder.sslContext;
    this.http =
        new ClientHttp(
            builder.baseUri,
            builder.user,
            builder.password,
            builder.token,
            builder.timeout,
            builder.attempts,
            () -> {
              HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(connectTimeout);
              if (sslContext != null) {
                client.sslContext(sslContext);
              }
              return client.build();
            });
    this.jobs = new JobEndpoints(http);
    this.files =
        "http".equalsIgnoreCase(builder.baseUri.getScheme())
            ? new FileRegionPoster(builder.baseUri, builder.connectTimeout, builder.timeout)
            : null;
    this.hec = new HecRequests(http, builder.hecToken, files);
  }

  /**
   * Closes the client's idle connections (the JDK client's and the {@code sendfile} ones of {@link
   * #sendRaw(FileChannel, long, long, String, String, String, String)}); a call under way ends, a
   * later one fails with {@link IllegalStateException}. Streams and jobs already opened are the
   * caller's to close.
   */
  @Override
  public void close() {
    if (files != null) {
      files.close();
    }
    http.close();
  }

  public static Builder builder(URI baseUri) {
    return new Builder(baseUri);
  }

  /** Runs a search over all time and returns every row. */
  public SearchResults search(String query) {
    return search(query, null, null);
  }

  /** Runs a search between two time modifiers (either may be null) and returns every row. */
  public SearchResults search(String query, String earliest, String latest) {
    HttpRequest request =
        SearchRequests.export(http, query, earliest, latest, Map.of("output_mode", "json"));
    HttpResponse<InputStream> response =
        http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = response.body()) {
      if (response.statusCode() != 200) {
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        throw ServerAnswers.failure(
            response.statusCode(), reader.lines().reduce("", (a, b) -> a + b));
      }
      return ServerAnswers.readResults(body); // the UTF-8 bytes, parsed as they come
    } catch (IOException e) {
      throw new QuarryClientException("reading search results failed: " + e.getMessage(), e);
    }
  }

  /** {@link #search(String, String, String)} without blocking the caller. */
  public CompletableFuture<SearchResults> searchAsync(
      String query, String earliest, String latest) {
    HttpRequest request =
        SearchRequests.export(http, query, earliest, latest, Map.of("output_mode", "json"));
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .thenApply(
            response -> {
              if (response.statusCode() != 200) {
                throw ServerAnswers.failure(response.statusCode(), response.body());
              }
              try {
                return ServerAnswers.readResults(
                    new BufferedReader(new java.io.StringReader(response.body())));
              } catch (IOException e) {
                throw new QuarryClientException(
                    "reading search results failed: " + e.getMessage(), e);
              }
            });
  }

  /** The wire format of {@link #stream(String, String, String, StreamFormat)}. */
  public enum StreamFormat {
    /** Quarry's JSON pages: each page names its columns; multivalues as lists; warnings. */
    JSON,
    /**
     * An Apache Arrow IPC stream (uncompressed; repeated strings dictionary-encoded): smaller and
     * cheaper to decode; one schema for the whole stream (every column of the first 10,000 rows,
     * types widened to fit them all), a column with multivalues a list column (read back as for
     * JSON: a {@code List} for several values, the value itself for one), no warnings.
     */
    ARROW
  }

  /**
   * Streams a search's typed result pages as JSON as the server produces them ({@code POST
   * /api/v1/search}); close the stream to stop early, which cancels the search.
   */
  public ResultStream stream(String query, String earliest, String latest) {
    return stream(query, earliest, latest, StreamFormat.JSON);
  }

  /**
   * Streams a search's typed result pages in a wire format as the server produces them ({@code POST
   * /api/v1/search}); close the stream to stop early, which cancels the search.
   */
  public ResultStream stream(String query, String earliest, String latest, StreamFormat format) {
    Map<String, Object> body = SearchRequests.body(query, earliest, latest);
    boolean arrow = requireNonNull(format, "format is null") == StreamFormat.ARROW;
    if (arrow) {
      body.put("compression", "none");
    }
    HttpRequest request;
    try {
      request =
          http.request("/api/v1/search")
              .header("Authorization", http.authorization())
              .header("Content-Type", "application/json")
              .header("Accept", arrow ? "application/vnd.apache.arrow.stream" : "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
              .build();
    } catch (JsonProcessingException e) {
      throw new QuarryClientException("cannot encode the search: " + e.getMessage(), e);
    }
    HttpResponse<InputStream> response =
        http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    try {
      if (response.statusCode() != 200) {
        try (InputStream error = response.body()) {
          throw ServerAnswers.failure(
              response.statusCode(), new String(error.readAllBytes(), StandardCharsets.UTF_8));
        }
      }
      return new ResultStream(
          arrow ? new ArrowPages(response.body()) : new ResultStream.JsonPages(response.body()));
    } catch (IOException e) {
      throw new QuarryClientException("reading the result stream failed: " + e.getMessage(), e);
    }
  }

  /**
   * Starts a search job on the server and returns at once; the handle polls it, pages its typed
   * results and steers it.
   *
   * @param earliest a time modifier ({@code -24h}) or null
   * @param latest a time modifier or null
   */
  public SearchJob submit(String query, String earliest, String latest) {
    return jobs.submit(SearchRequests.body(query, earliest, latest));
  }

  /**
   * How the server would run a search (indexes, time range, term-index query, execution mode and
   * the map/reduce split), as pretty-printed JSON; nothing is run.
   */
  public String explain(String query, String earliest, String latest) {
    HttpRequest request =
        SearchRequests.export(http, query, earliest, latest, Map.of("explain", "true"));
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw ServerAnswers.failure(response.statusCode(), response.body());
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter()
          .writeValueAsString(JSON.readTree(response.body()).get("explain"));
    } catch (IOException e) {
      throw new QuarryClientException("reading the explanation failed: " + e.getMessage(), e);
    }
  }

  /** Every index with its size, time range and buckets. */
  public List<IndexSummary> indexes() {
    return ServerAnswers.indexSummaries(indexList().path("indexes"));
  }

  /** Every metric index ({@code datatype: metric}) with its points, series, chunks and bytes. */
  public List<MetricIndexSummary> metricIndexes() {
    return ServerAnswers.metricIndexSummaries(indexList().path("metricIndexes"));
  }

  /** {@code GET /api/v1/indexes}: event indexes under {@code indexes}, metric indexes apart. */
  private JsonNode indexList() {
    HttpRequest request =
        http.request("/api/v1/indexes").header("Authorization", http.authorization()).GET().build();
    HttpResponse<String> response = http.sendIdempotent(request);
    if (response.statusCode() != 200) {
      throw ServerAnswers.failure(response.statusCode(), response.body());
    }
    try {
      return JSON.readTree(response.body());
    } catch (JsonProcessingException e) {
      throw new QuarryClientException("unreadable index list: " + e.getMessage(), e);
    }
  }

  /**
   * Sends events as HEC envelopes ({@code event}, and optionally {@code time}, {@code host}, …).
   */
  public void sendEvents(List<Map<String, Object>> envelopes) {
    hec.events(envelopes);
  }

  /**
   * Sends raw text to be broken into events by the sourcetype's rules.
   *
   * @param host the host field, or null for the server's default
   * @param source the source field, or null for the server's default
   */
  public void sendRaw(byte[] body, String sourcetype, String index, String host, String source) {
    sendRaw(body, 0, body.length, sourcetype, index, host, source);
  }

  /**
   * Sends {@code length} bytes of {@code body} from {@code offset} as raw text, as {@link
   * #sendRaw(byte[], String, String, String, String)} does, without copying them: the region must
   * not change until this returns (so a caller can reuse its read buffers).
   */
  public void sendRaw(
      byte[] body,
      int offset,
      int length,
      String sourcetype,
      String index,
      String host,
      String source) {
    hec.raw(body, offset, length, sourcetype, index, host, source);
  }

  /**
   * Sends {@code length} bytes of {@code file} from {@code position} as raw text, as {@link
   * #sendRaw(byte[], String, String, String, String)} does. Over {@code http://} the bytes go from
   * the file to the connection by {@code sendfile} (where the OS has it), never through the JVM's
   * heap: what {@code quarry ingest} sends files with. The region must hold whole events (end at a
   * line end) and not change until this returns.
   */
  public void sendRaw(
      FileChannel file,
      long position,
      long length,
      String sourcetype,
      String index,
      String host,
      String source) {
    hec.rawFile(file, position, length, sourcetype, index, host, source);
  }

  /** Configures a client. */
  public static final class Builder {
    private final URI baseUri;
    private String user = "admin";
    private String password;
    private String token;
    private String hecToken;
    private Duration timeout = Duration.ofMinutes(5);
    private Duration connectTimeout = Duration.ofSeconds(10);
    private int attempts = 3;
    private SSLContext sslContext;

    private Builder(URI baseUri) {
      this.baseUri = requireNonNull(baseUri, "baseUri is null");
    }

    /** Searches as {@code admin} with this password (HTTP Basic). */
    public Builder adminPassword(String adminPassword) {
      return credentials("admin", adminPassword);
    }

    /** Searches as a user of the server's {@code auth.users} (HTTP Basic). */
    public Builder credentials(String user, String password) {
      this.user = requireNonNull(user, "user is null");
      this.password = password;
      return this;
    }

    /**
     * Searches with a session key from {@code POST /services/auth/login} ({@code Authorization:
     * Bearer}); it takes precedence over credentials.
     */
    public Builder token(String token) {
      this.token = token;
      return this;
    }

    public Builder hecToken(String hecToken) {
      this.hecToken = hecToken;
      return this;
    }

    /** How long one request may take (default 5 minutes). */
    public Builder timeout(Duration timeout) {
      this.timeout = requireNonNull(timeout, "timeout is null");
      return this;
    }

    /** How long connecting may take (default 10 seconds). */
    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = requireNonNull(connectTimeout, "connectTimeout is null");
      return this;
    }

    /**
     * How many times an idempotent call (job status, results, inspection, index list) is tried when
     * the server cannot be reached or answers 503/429 (default 3), waiting the server's Retry-After
     * or an exponential backoff between tries. Searches and ingestion are not retried here (HEC
     * sends have their own retries: {@link HecSender}).
     */
    public Builder retries(int attempts) {
      if (attempts < 1) {
        throw new IllegalArgumentException("attempts must be at least 1, not " + attempts);
      }
      this.attempts = attempts;
      return this;
    }

    /**
     * The TLS context for an {@code https://} server: its trust store (a private CA, e.g. {@link
     * TlsTrust#trusting} of the server's generated {@code <dataDir>/tls/ca.pem}) and client
     * certificates, if any. Without one, the JDK's default trust store applies.
     */
    public Builder sslContext(SSLContext sslContext) {
      this.sslContext = sslContext;
      return this;
    }

    public QuarryClient build() {
      return new QuarryClient(this);
    }
  }
}
