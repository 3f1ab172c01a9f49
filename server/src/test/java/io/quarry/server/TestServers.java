package io.quarry.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.config.ConfigBuilder;
import io.quarry.server.config.HecToken;
import io.quarry.server.config.IndexStorage;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.config.Storage;
import io.quarry.server.config.Tls;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Real servers on 127.0.0.1 for tests: index {@code main}, an admin password, one HEC token. */
public final class TestServers {
  /** The HEC token of {@link #start}'s servers; it may write {@code main}. */
  public static final String TOKEN = "tok";

  private TestServers() {}

  /** A server on a free port with its data in {@code dataDirectory}. */
  public static QuarryServer start(Path dataDirectory, String adminPassword) throws Exception {
    return start(dataDirectory, adminPassword, settings -> settings);
  }

  /** A server on a free port of 127.0.0.1 with this TLS (its URL is {@code https://…}). */
  public static QuarryServer startTls(Path dataDirectory, String adminPassword, Tls tls)
      throws Exception {
    return start(dataDirectory, adminPassword, settings -> settings.put("server.tls", tls));
  }

  /**
   * The settings of this class's servers: {@link QuarryConfig#embedded}'s with this admin password
   * and HEC token {@link #TOKEN}.
   */
  public static ConfigBuilder settings(Path dataDirectory, String adminPassword) {
    return QuarryConfig.embedded(dataDirectory, adminPassword, TOKEN);
  }

  /** A server with {@link #settings} and what {@code more} changes or adds (limits, timeouts). */
  public static QuarryServer start(
      Path dataDirectory, String adminPassword, UnaryOperator<ConfigBuilder> more)
      throws Exception {
    return QuarryServer.start(
        more.apply(settings(dataDirectory, adminPassword)).build(), Clock.systemUTC());
  }

  /**
   * As {@link #start(Path, String, UnaryOperator)}, each event index's buckets opened by {@code
   * directories} (given the index's name): a test fails one index's disk on a real server through
   * it (the codecs test-jar's {@code FaultyDirectories}).
   */
  public static QuarryServer startWithDirectories(
      Path dataDirectory,
      String adminPassword,
      UnaryOperator<ConfigBuilder> more,
      java.util.function.Function<String, io.quarry.codecs.store.BucketDirectories> directories)
      throws Exception {
    return QuarryServer.start(
        more.apply(settings(dataDirectory, adminPassword)).build(),
        Clock.systemUTC(),
        List.of(),
        directories);
  }

  /**
   * A server on 127.0.0.1 whose indexes {@code ev} and {@code bl} keep the same events in the two
   * layouts ({@link #eventsBesideBlocks}), {@code token} writing to both, with {@code sourcetypes}.
   */
  public static QuarryServer startLayouts(
      java.nio.file.Path data,
      String password,
      String token,
      Map<String, io.quarry.server.sourcetype.SourcetypeSettings> sourcetypes)
      throws Exception {
    return startLayouts(
        data, password, token, settings -> settings.put("sourcetypes", sourcetypes));
  }

  /** As above, with what {@code more} changes or adds (limits, sourcetypes). */
  public static QuarryServer startLayouts(
      Path data, String password, String token, UnaryOperator<ConfigBuilder> more)
      throws Exception {
    return startIndexes(data, password, token, List.of("ev", "bl"), eventsBesideBlocks(), more);
  }

  /**
   * A server with {@code indexes} kept as {@code storage} says, {@code token} writing to all of
   * them (its default index the first), with what {@code more} changes or adds.
   */
  public static QuarryServer startIndexes(
      Path data,
      String password,
      String token,
      List<String> indexes,
      Storage storage,
      UnaryOperator<ConfigBuilder> more)
      throws Exception {
    return start(
        data,
        password,
        settings -> more.apply(indexes(settings, token, indexes).put("storage", storage)));
  }

  /**
   * {@code settings} with {@code indexes}, HEC token {@code token} writing to all (the first its
   * default).
   */
  public static ConfigBuilder indexes(ConfigBuilder settings, String token, List<String> indexes) {
    return settings
        .put("indexes", indexes)
        .put("hec.tokens", List.of(new HecToken(token, "test", indexes.get(0), indexes, null)));
  }

  /**
   * {@code settings} with index {@code main} and a metric index {@code m} of at most {@code
   * maxBucketPoints} points a hot bucket, HEC token {@link #TOKEN} writing to both.
   */
  public static ConfigBuilder withMetricIndex(ConfigBuilder settings, long maxBucketPoints) {
    return indexes(settings, TOKEN, List.of("main", "m"))
        .put("storage.indexes.m.datatype", "metric")
        .put("storage.indexes.m.maxBucketPoints", maxBucketPoints);
  }

  /**
   * Storage for tests comparing the two layouts: index {@code ev} keeps one document per event
   * ({@code format: events}), index {@code bl} one per block of events ({@code format: blocks}).
   */
  public static Storage eventsBesideBlocks() {
    return storage(Map.of("ev", "events", "bl", "blocks"));
  }

  /** Storage keeping each of {@code formats}' indexes in the format it names. */
  public static Storage storage(Map<String, String> formats) {
    Map<String, IndexStorage> indexes = new java.util.HashMap<>();
    formats.forEach(
        (index, format) ->
            indexes.put(
                index,
                new IndexStorage(
                    null, null, null, null, null, null, null, null, format, null, null)));
    return new Storage(
        null, null, null, null, null, Map.copyOf(indexes), null, null, null, null, null, null);
  }

  /**
   * Sends lines through {@code /services/collector/raw} (sourcetype {@code app}, HEC token {@link
   * #TOKEN}) into the token's default index; fails unless the answer is 200.
   */
  public static void loadRaw(QuarryServer server, String lines) throws Exception {
    loadRaw(server, null, lines);
  }

  /** As above, into {@code index} (null: the token's default index). */
  public static void loadRaw(QuarryServer server, String index, String lines) throws Exception {
    HttpResponse<String> loaded = postRaw(server, TOKEN, "app", index, lines);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  /** Posts {@code body} to {@code /services/collector/raw} with HEC token {@code token}. */
  public static HttpResponse<String> postRaw(
      QuarryServer server, String token, String sourcetype, String body) throws Exception {
    return postRaw(server, token, sourcetype, null, body);
  }

  /** As above, into {@code index} (null: the token's default index). */
  public static HttpResponse<String> postRaw(
      QuarryServer server, String token, String sourcetype, String index, String body)
      throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(
                        server.url()
                            + "/services/collector/raw?sourcetype="
                            + sourcetype
                            + (index == null ? "" : "&index=" + index)))
                .header("Authorization", "Splunk " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /**
   * Posts {@code body} (HEC envelopes, one after another) to {@code /services/collector/event} with
   * HEC token {@code token} and expects it accepted.
   */
  public static void postEvents(QuarryServer server, String token, String body) throws Exception {
    HttpResponse<String> response = postHec(server, token, "/services/collector/event", body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
  }

  /** Posts {@code body} to the HEC endpoint {@code path} with token {@link #TOKEN}: the answer. */
  public static HttpResponse<String> postHec(QuarryServer server, String path, String body)
      throws Exception {
    return postHec(server, TOKEN, path, body);
  }

  /** As above, with HEC token {@code token}. */
  public static HttpResponse<String> postHec(
      QuarryServer server, String token, String path, String body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Authorization", "Splunk " + token)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** Runs a search through Splunk's export endpoint (JSON lines) as admin. */
  public static HttpResponse<String> export(QuarryServer server, String password, String query)
      throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + "/services/search/jobs/export"))
                .header("Authorization", basic(password))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "output_mode=json&search="
                            + java.net.URLEncoder.encode(
                                query, java.nio.charset.StandardCharsets.UTF_8)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** Runs a search through {@link #export} and expects it answered (200): the answer's body. */
  public static String exportOk(QuarryServer server, String password, String query)
      throws Exception {
    HttpResponse<String> response = export(server, password, query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  /** The events in {@code index}, by {@code search index=<index> | stats count} as admin. */
  public static long countOf(QuarryServer server, String password, String index) throws Exception {
    String body = exportOk(server, password, "search index=" + index + " | stats count");
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    for (String line : body.split("\n")) {
      com.fasterxml.jackson.databind.JsonNode row = line.isBlank() ? null : json.readTree(line);
      if (row != null && row.has("result")) {
        return row.get("result").get("count").asLong();
      }
    }
    throw new AssertionError("no count in " + body);
  }

  /**
   * Waits until {@code search index=<index> | stats count} answers {@code events} as admin: polled
   * every 50 ms, at most {@code polls} times (then it fails, naming the index).
   */
  public static void awaitCount(
      QuarryServer server, String password, String index, long events, int polls) throws Exception {
    String count = "\"count\":\"" + events + "\"";
    for (int wait = 0;
        !exportOk(server, password, "search index=" + index + " | stats count").contains(count);
        wait++) {
      assertThat(wait).as("events of %s searchable", index).isLessThan(polls);
      Thread.sleep(50);
    }
  }

  /** The results of an answered {@link #exportOk export} as admin, in order, each its JSON. */
  public static List<com.fasterxml.jackson.databind.JsonNode> exportRows(
      QuarryServer server, String password, String search) throws Exception {
    String body = exportOk(server, password, search);
    List<com.fasterxml.jackson.databind.JsonNode> rows = new java.util.ArrayList<>();
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    for (String line : body.split("\n")) {
      com.fasterxml.jackson.databind.JsonNode result =
          line.isBlank() ? null : json.readTree(line).get("result");
      if (result != null) {
        rows.add(result);
      }
    }
    return rows;
  }

  /** {@code Authorization: Basic} for admin. */
  public static String basic(String password) {
    return "Basic "
        + java.util.Base64.getEncoder()
            .encodeToString(
                ("admin:" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /**
   * Where two exports of one search in pages of different sizes ({@link #export}) disagree, null
   * where they agree: as many results, and result by result every field both hold with the same
   * value (see {@code PageSizeAgreement.disagreement} for why not more).
   */
  public static String exportDisagreement(String whole, String paged) throws Exception {
    List<java.util.Map<String, String>> one = exportResults(whole);
    List<java.util.Map<String, String>> other = exportResults(paged);
    if (one.size() != other.size()) {
      return one.size() + " results against " + other.size();
    }
    for (int r = 0; r < one.size(); r++) {
      for (var field : one.get(r).entrySet()) {
        String value = other.get(r).get(field.getKey());
        if (value != null && !value.equals(field.getValue())) {
          return "result %d: %s=%s against %s%n  %s%n  %s"
              .formatted(r, field.getKey(), field.getValue(), value, one.get(r), other.get(r));
        }
      }
    }
    return null;
  }

  /** An export's results, each its fields' values (JSON text) by name. */
  private static List<java.util.Map<String, String>> exportResults(String body) throws Exception {
    com.fasterxml.jackson.databind.ObjectMapper json =
        new com.fasterxml.jackson.databind.ObjectMapper();
    List<java.util.Map<String, String>> results = new java.util.ArrayList<>();
    for (String line : body.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      com.fasterxml.jackson.databind.JsonNode result = json.readTree(line).get("result");
      if (result != null) {
        java.util.Map<String, String> fields = new java.util.TreeMap<>();
        result.fields().forEachRemaining(f -> fields.put(f.getKey(), f.getValue().toString()));
        results.add(fields);
      }
    }
    return results;
  }
}
