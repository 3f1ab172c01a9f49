package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's {@code TERM()} and {@code CASE()} search directives (they used to search for the words
 * "TERM" and "CASE"). Expected counts by hand from the six events below.
 */
class DirectiveSearchTest {
  private static final String PASSWORD = "directive-pw";

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    TestServers.loadRaw(
        server,
        "2026-01-01 00:00:01 id=1 from 10.1.2.3 Error happened\n"
            + "2026-01-01 00:00:02 id=2 from 10.1.2.30 error happened\n"
            + "2026-01-01 00:00:03 id=3 from 10.1.2 ERROR happened\n"
            + "2026-01-01 00:00:04 id=4 path=/a/10.1.2.3/b Error again\n"
            + "2026-01-01 00:00:05 id=5 from [10.1.2.3] fine\n"
            + "2026-01-01 00:00:06 id=6 TERM CASE words only\n");
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void termMatchesAWholeTokenBetweenMajorBreakers() throws Exception {
    // 1 and 5 hold the token 10.1.2.3; 2 holds 10.1.2.30; 4 holds it inside /a/10.1.2.3/b
    assertThat(count("TERM(10.1.2.3)")).isEqualTo(2);
    assertThat(count("TERM(10.1.2)")).as("no prefix of a longer token").isEqualTo(1);
    assertThat(count("10.1.2")).as("a bare word matches parts and prefixes").isEqualTo(5);
    assertThat(count("TERM(10.1.2.3*)")).isEqualTo(3);
    assertThat(count("NOT TERM(10.1.2.3)")).isEqualTo(4);
  }

  @Test
  void caseMatchesTheWordWithItsCase() throws Exception {
    assertThat(count("CASE(Error)")).isEqualTo(2);
    assertThat(count("error")).as("a bare word is case-insensitive").isEqualTo(4);
    assertThat(count("CASE(ERROR)")).isEqualTo(1);
    assertThat(count("CASE(Err*r)")).as("each part with its case").isEqualTo(2);
  }

  @Test
  void theWordsTermAndCaseAloneAreStillWords() throws Exception {
    assertThat(count("TERM CASE")).isEqualTo(1);
    assertThat(count("TERM (10.1.2.3)"))
        .as("with a space it is the word TERM and a group")
        .isZero();
  }

  private long count(String search) throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, search + " | stats count");
    assertThat(response.statusCode()).as(search + ": " + response.body()).isEqualTo(200);
    String body = response.body();
    int at = body.indexOf("\"count\":\"");
    return Long.parseLong(body.substring(at + 9, body.indexOf('"', at + 9)));
  }
}
