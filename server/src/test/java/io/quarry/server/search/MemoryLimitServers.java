package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;

/**
 * The servers of the search memory limit's tests ({@code SearchMemoryLimitTest}, {@code
 * EventListingMemoryLimitTest}): a real server with {@code search.maxMemoryBytes} set, holding
 * events {@code x=value<i> y=g<i % 3>} of sourcetype {@code app}.
 */
final class MemoryLimitServers {
  private MemoryLimitServers() {}

  /** A server whose searches may hold {@code maxMemoryBytes}, with {@code events} events loaded. */
  static QuarryServer start(Path data, String password, long maxMemoryBytes, int events)
      throws Exception {
    QuarryServer server =
        TestServers.start(
            data, password, settings -> settings.put("search.maxMemoryBytes", maxMemoryBytes));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < events; i++) {
      lines.append("2026-01-07T10:00:00Z x=value").append(i).append(" y=g").append(i % 3);
      lines.append('\n');
    }
    HttpResponse<String> loaded =
        TestServers.postRaw(server, TestServers.TOKEN, "app", lines.toString());
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    return server;
  }
}
