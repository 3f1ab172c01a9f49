package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review a39 (lane listing2): a plugin command without a field list over events ({@code replace …
 * WITH …} without {@code IN}, a streaming command) under {@code head 5} answers under a small
 * search memory limit (400 KiB, 5,000 events: a page of 1,024 held rows is 512 KiB), as on main:
 * the listing holds the head's rows, not the whole index. Holding the command's whole output until
 * its input ends (to learn which fields it wrote) makes {@code … | replace … | head 5} read and
 * hold every event: a 422 MEMORY_LIMIT where main answered 200.
 */
class ListingUnderHeadHeldTest {
  private static final String PASSWORD = "listing-held-password";

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = MemoryLimitServers.start(root.resolve("data"), PASSWORD, 400L << 10, 5_000);
  }

  @Test
  void aStreamingCommandWithoutFieldListUnderAHeadAnswersUnderTheLimit() throws Exception {
    for (String query :
        List.of(
            "x=value* | replace \"value1*\" WITH \"one\" IN x | head 5",
            "x=value* | replace \"value1*\" WITH \"one\" | head 5")) {
      HttpResponse<String> answered = TestServers.export(server, PASSWORD, query);
      assertThat(answered.statusCode()).as(query + ": " + answered.body()).isEqualTo(200);
      assertThat(answered.body().lines().filter(line -> line.contains("\"result\"")))
          .as(query + ": " + answered.body())
          .hasSize(5);
    }
  }
}
