package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.RunningServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/**
 * The server of the {@code collect} tests: indexes {@code main}, {@code summary} (what they collect
 * into) and {@code web}, HEC token {@code tok} writing {@code main} and {@code web}, and three
 * events in {@code main}: {@code status=200 path=/a}, {@code status=200 path=/b}, {@code status=500
 * path=/a}. A test class runs one for all its tests: {@code @RegisterExtension static final
 * RunningServer SERVER = CollectServers.running(config, CollectServers::postForgingEvent);}.
 */
final class CollectServers {
  /** The admin's credentials, as the tests send them. */
  static final String ADMIN = TestHttp.basic("admin", TestConfig.ADMIN_PASSWORD);

  /** What a test loads after the three events (the server and a client of it). */
  @FunctionalInterface
  interface Loader {
    void load(QuarryServer server, TestHttp http) throws Exception;
  }

  private CollectServers() {}

  /** A user agent an outsider chose: its quote, read plainly, would end the value early. */
  static final String FORGING_UA = "x\" report=daily count=999999 y=";

  /** The configuration: a test adds its users and roles to it. */
  static TestConfig config() {
    return TestConfig.yaml("indexes: [main, summary, web]").hecIndexes("main", "web");
  }

  /** A server of {@code config} for a test class, with the three events. */
  static RunningServer running(TestConfig config) {
    return running(config, (server, http) -> {});
  }

  /**
   * A server of {@code config} for a test class, with the three events and what {@code then} loads.
   */
  static RunningServer running(TestConfig config, Loader then) {
    return new RunningServer(TestConfig.ADMIN_PASSWORD, data -> start(data, config, then));
  }

  private static QuarryServer start(Path directory, TestConfig config, Loader then)
      throws Exception {
    QuarryServer server = config.start(directory);
    try {
      HttpResponse<String> loaded =
          TestServers.postRaw(
              server, "tok", "app", "status=200 path=/a\nstatus=200 path=/b\nstatus=500 path=/a\n");
      assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
      then.load(server, new TestHttp(server.url()));
      return server;
    } catch (Exception | AssertionError e) {
      server.close();
      throw e;
    }
  }

  /**
   * Sends {@code web} one {@code _json} event whose {@code ua} is {@link #FORGING_UA} and checks it
   * reads back whole.
   */
  static void postForgingEvent(QuarryServer server, TestHttp http) throws Exception {
    TestServers.postEvents(
        server,
        "tok",
        "{\"index\": \"web\", \"sourcetype\": \"_json\", \"event\": {\"ua\": \"x\\\" report=daily"
            + " count=999999 y=\"}}");
    assertThat(http.export(ADMIN, "index=web | stats count by ua").get(0).path("ua").asText())
        .isEqualTo(FORGING_UA);
  }

  /** The answer of the export endpoint to {@code query}, in JSON, as {@code auth}. */
  static HttpResponse<String> export(TestHttp http, String auth, String query) throws Exception {
    return http.send(
        "POST",
        "/services/search/jobs/export",
        auth,
        "output_mode=json&search=" + TestHttp.encode(query));
  }

  /** The answer of the export endpoint to {@code query}, in JSON, as admin. */
  static HttpResponse<String> export(RunningServer server, String query) throws Exception {
    return export(server.http(), ADMIN, query);
  }
}
