package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.client.QuarryClient;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code quarry ingest} in-process against a real server: directories, gzip, resuming. */
class IngestCommandTest {
  @TempDir Path directory;
  private IngestServer server;
  private QuarryClient search;

  @BeforeEach
  void start() throws Exception {
    server = IngestServer.start(directory.resolve("data"));
    search = server.client();
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private int ingest(String... paths) {
    List<String> args = new java.util.ArrayList<>(List.of(paths));
    args.addFirst("--checkpoints=" + directory.resolve("checkpoints.json"));
    return QuarryCli.commandLine().execute(server.ingest(args.toArray(String[]::new)));
  }

  private long count(String query) {
    return server.count(query);
  }

  private static String lines(String prefix, int from, int to) {
    StringBuilder text = new StringBuilder();
    for (int i = from; i < to; i++) {
      text.append("2026-01-01 00:00:00 ")
          .append(prefix)
          .append(" line=")
          .append(i)
          .append(" ")
          .append("x".repeat(200))
          .append('\n');
    }
    return text.toString();
  }

  @Test
  void loadsDirectoriesAndGzipAndAReRunSendsNothingTwice() throws Exception {
    Path logs = Files.createDirectories(directory.resolve("logs/nested"));
    // four 4 MiB chunks: with two requests in flight the reader reuses a buffer sent before
    Files.writeString(logs.resolve("a.log"), lines("plain", 0, 60_000));
    try (OutputStream gzip =
        new GZIPOutputStream(Files.newOutputStream(logs.resolve("b.log.gz")))) {
      gzip.write(lines("zipped", 0, 500).getBytes(StandardCharsets.UTF_8));
    }
    Files.writeString(logs.resolve(".hidden"), "never sent\n");

    assertThat(ingest(directory.resolve("logs").toString())).isZero();
    assertThat(count("index=logs plain")).isEqualTo(60_000);
    assertThat(search.search("index=logs plain | stats dc(line) AS d").rows().get(0).get("d"))
        .as("every line once")
        .isEqualTo("60000");
    assertThat(count("index=logs zipped")).isEqualTo(500);
    assertThat(count("index=logs never")).isZero();

    assertThat(ingest(directory.resolve("logs").toString())).isZero();
    assertThat(count("index=logs")).isEqualTo(60_500);
  }

  @Test
  void anInterruptedLoadResumesWhereTheServerStoppedAcknowledging() throws Exception {
    Path file = directory.resolve("app.log");
    String all = lines("resume", 0, 40_000);
    Files.writeString(file, all);
    // what an interrupted run leaves: the first and the third chunk of a run acknowledged, the
    // second one lost with the process (parallel requests finish out of order)
    String key = IngestCheckpoints.key(server.url(), "logs", file);
    long firstEnd = all.lastIndexOf('\n', all.indexOf("line=10000 ")) + 1;
    long thirdStart = all.lastIndexOf('\n', all.indexOf("line=20000 ")) + 1;
    long thirdEnd = all.lastIndexOf('\n', all.indexOf("line=30000 ")) + 1;
    IngestCheckpoints checkpoints = IngestCheckpoints.open(directory.resolve("checkpoints.json"));
    checkpoints.markDone(key, 0, firstEnd);
    checkpoints.markDone(key, thirdStart, thirdEnd);
    String[] lines = all.split("\n");
    StringBuilder alreadyThere = new StringBuilder();
    for (int i = 0; i < 40_000; i++) {
      if (i < 10_000 || (i >= 20_000 && i < 30_000)) {
        alreadyThere.append(lines[i]).append('\n');
      }
    }
    search.sendRaw(
        alreadyThere.toString().getBytes(StandardCharsets.UTF_8),
        "generic_single_line",
        "logs",
        null,
        file.toAbsolutePath().toString());

    assertThat(ingest(file.toString())).isZero();
    assertThat(count("index=logs resume")).isEqualTo(40_000);
    assertThat(count("index=logs line=15000")).isEqualTo(1);
    assertThat(count("index=logs line=25000")).isEqualTo(1);
    assertThat(count("index=logs line=39999")).isEqualTo(1);

    Map<?, ?> saved =
        new ObjectMapper().readValue(directory.resolve("checkpoints.json").toFile(), Map.class);
    assertThat(saved.get(key).toString()).isEqualTo("[[0, " + Files.size(file) + "]]");
  }
}
