package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code quarry search} in-process against a real server. */
class SearchCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path directory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(directory.resolve("data"), "pw");
    TestServers.loadRaw(
        server, "status=503 clientip=10.0.0.1 host=a\nstatus=200 clientip=10.0.0.2 host=c\n");
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  /** Runs the CLI and returns what it printed; the exit code must be 0. */
  private String cli(String... args) {
    PrintStream original = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int exit;
    try {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      exit = QuarryCli.commandLine().execute(args);
    } finally {
      System.setOut(original);
    }
    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    return text;
  }

  @Test
  void explainShowsThePlanInSpl() throws Exception {
    String printed =
        cli(
            "search",
            "--explain",
            "--url=" + server.url(),
            "--password=pw",
            "index=main status>=500 NOT (host=a OR host=\"b c\") clientip IN (10.0.0.1, 10.0.0.3)"
                + " | eval slow=if(ms > 100, \"yes\", \"no\") | stats count by clientip"
                + " | sort -count | head 10");
    assertThat(printed)
        .contains("status>=500")
        .doesNotContain("Comparison[")
        .doesNotContain("Not[")
        .doesNotContain("Binary[")
        .doesNotContain("StatsCommand[");
    JsonNode plan = JSON.readTree(printed);
    String filter = "status>=500 NOT (host=a OR host=\"b c\") clientip IN (10.0.0.1, 10.0.0.3)";
    assertThat(plan.get("filter").asText()).isEqualTo(filter);
    assertThat(plan.get("per_event_filter").asText()).isEqualTo(filter);
    assertThat(plan.get("mode").asText()).isEqualTo("batch");
    assertThat(plan.get("map").toString())
        .isEqualTo(
            "[\"eval slow=if(ms > 100, \\\"yes\\\", \\\"no\\\")\","
                + "\"stats count by clientip (partial)\"]");
    assertThat(plan.get("reduce").toString())
        .isEqualTo("[\"stats count by clientip (merge)\",\"sort 10 -count\",\"head 10\"]");

    JsonNode ordered =
        JSON.readTree(
            cli(
                "search",
                "--explain",
                "--url=" + server.url(),
                "--password=pw",
                "status=503 | table clientip, status"));
    assertThat(ordered.get("filter").asText()).isEqualTo("status=503");
    assertThat(ordered.get("pipeline").toString()).isEqualTo("[\"table clientip, status\"]");
    JsonNode generated =
        JSON.readTree(
            cli(
                "search",
                "--explain",
                "--url=" + server.url(),
                "--password=pw",
                "| makeresults count=2 | eval x=1"));
    assertThat(generated.get("generator").asText()).isEqualTo("makeresults count=2");
    assertThat(generated.get("filter").isNull()).isTrue();
  }

  @Test
  void searchPrintsATable() {
    String printed =
        cli(
            "search",
            "--url=" + server.url(),
            "--password=pw",
            "status>=500 | stats count by clientip");
    assertThat(printed).contains("clientip").contains("10.0.0.1").doesNotContain("10.0.0.2");
  }

  @Test
  void indexesVerboseBreaksTheBytesDownByWhatTheyHold() {
    String printed = cli("indexes", "--url=" + server.url(), "--password=pw", "--verbose");
    assertThat(printed)
        .contains("holds", "per raw byte")
        .containsPattern("main\\s+journal\\s+[0-9.]+ MB\\s+[0-9.]+%")
        .containsPattern("main\\s+postings")
        .contains("compaction due");
  }

  @Test
  void aLocalServersGeneratedPasswordIsNeverSentToAnotherHost() throws Exception {
    java.nio.file.Path data = directory.resolve("data");
    java.nio.file.Files.writeString(data.resolve(".admin-password"), "pw\n");
    PrintStream original = System.err;
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int exit;
    try {
      System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
      exit =
          QuarryCli.commandLine()
              .execute(
                  "search", "--url=http://192.0.2.1:8088", "--data-dir=" + data, "* | stats count");
    } finally {
      System.setErr(original);
    }
    assertThat(exit).isNotZero();
    assertThat(errors.toString(StandardCharsets.UTF_8))
        .contains("only sent to a server on this machine");
  }
}
