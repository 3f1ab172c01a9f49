package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.QuarryClient;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigBuilder;
import io.quarry.server.config.HecToken;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry ingest} sending uncompressed files by {@code sendfile} against a real server: every
 * line once whatever the chunk edges, line ends and the file's end; a busy server's 503 retried
 * after its Retry-After; a refusal reported; a kept-alive connection the server closed while idle
 * replaced without losing the request.
 */
class IngestSendfileTest {
  @TempDir Path directory;
  private QuarryServer server;
  private QuarryClient search;

  @BeforeEach
  void start() throws Exception {
    start(settings -> settings);
  }

  private void start(UnaryOperator<ConfigBuilder> more) throws Exception {
    if (server != null) {
      server.close();
    }
    server =
        QuarryServer.start(
            more.apply(
                    TestServers.settings(directory.resolve("data"), "pw")
                        .put("indexes", List.of("main", "logs"))
                        .put(
                            "hec.tokens",
                            List.of(new HecToken("tok", "cli", "main", List.of("*"), null)))
                        .put("server.idleTimeoutSeconds", 1))
                .build(),
            Clock.systemUTC());
    search =
        QuarryClient.builder(URI.create(server.url())).adminPassword("pw").hecToken("tok").build();
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private record Run(int exit, String err) {}

  private Run ingest(String token, String... paths) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "ingest",
                "--url=" + server.url(),
                "--token=" + token,
                "--index=logs",
                "--sourcetype=generic_single_line",
                "--parallel=1",
                "--no-resume"));
    args.addAll(List.of(paths));
    PrintStream err = System.err;
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    try {
      System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
      int exit = QuarryCli.commandLine().execute(args.toArray(String[]::new));
      return new Run(exit, errors.toString(StandardCharsets.UTF_8));
    } finally {
      System.setErr(err);
    }
  }

  private long count(String query) {
    return Long.parseLong(search.search(query + " | stats count").rows().get(0).get("count"));
  }

  @Test
  void everyLineOnceWithCrlfLinesEndingAtChunkEdgesAndNoFinalLineEnd() throws Exception {
    // 1,024-byte lines: a 4 MiB chunk ends exactly at a line end (the cut goes before that line)
    StringBuilder text = new StringBuilder();
    int lines = 9_000;
    for (int i = 0; i < lines; i++) {
      String head = "2026-01-01 00:00:00 crlf line=" + i + " ";
      text.append(head).append("y".repeat(1_022 - head.length()));
      if (i < lines - 1) {
        text.append("\r\n"); // the last line has no line end
      }
    }
    Path file = directory.resolve("crlf.log");
    Files.writeString(file, text, StandardCharsets.US_ASCII);
    assertThat(Files.size(file)).isGreaterThan(2L * FileChunks.CHUNK_BYTES);

    Run run = ingest("tok", file.toString());

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(count("index=logs crlf")).isEqualTo(lines);
    assertThat(search.search("index=logs crlf | stats dc(line) AS d").rows().get(0).get("d"))
        .as("every line once")
        .isEqualTo(Integer.toString(lines));
    for (int i : new int[] {0, 4_095, 4_096, 4_097, 8_191, 8_192, lines - 1}) {
      assertThat(count("index=logs line=" + i)).as("line %d", i).isEqualTo(1);
    }
  }

  /**
   * The follower must still be following at every step (a follower that failed — a request lost on
   * a connection the server closed — ends with exit 2 and says why), and ends 0 when interrupted.
   */
  @Test
  void followSendsAppendedLinesButNotAnUnfinishedOne() throws Exception {
    Path file = directory.resolve("grows.log");
    Files.writeString(file, "2026-01-01 00:00:00 grows one\n2026-01-01 00:00:01 grows two\n");
    CompletableFuture<Run> followed = new CompletableFuture<>();
    Thread follower =
        new Thread(() -> followed.complete(ingest("tok", "--follow", file.toString())));
    follower.start();
    try {
      awaitCount("index=logs grows", 2, followed);
      Files.writeString(
          file,
          "2026-01-01 00:00:02 grows three\n2026-01-01 00:00:03 grows four\n2026-01-01 grows half",
          StandardOpenOption.APPEND);
      awaitCount("index=logs grows", 4, followed);
      Thread.sleep(2_500); // two more rounds of the follower: the unfinished line stays unsent
      assertThat(count("index=logs grows")).isEqualTo(4);
      stillFollowing(followed);
      Files.writeString(file, " done\n", StandardOpenOption.APPEND);
      awaitCount("index=logs grows", 5, followed);
      assertThat(count("index=logs grows half done")).isEqualTo(1);
    } finally {
      follower.interrupt();
      follower.join(10_000);
    }
    Run run = followed.getNow(null);
    assertThat(run).as("the follower ended once interrupted").isNotNull();
    assertThat(run.exit()).as(run.err()).isZero();
  }

  /** Fails, with what it reported, when the follower ended before it was stopped. */
  private static void stillFollowing(CompletableFuture<Run> followed) {
    Run ended = followed.getNow(null);
    assertThat(ended)
        .as("the follower ended early: exit %s, %s", ended == null ? 0 : ended.exit(), ended)
        .isNull();
  }

  private void awaitCount(String query, long expected, CompletableFuture<Run> followed)
      throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (count(query) < expected && System.nanoTime() < deadline) {
      stillFollowing(followed);
      Thread.sleep(100);
    }
    stillFollowing(followed);
    assertThat(count(query)).as(query).isEqualTo(expected);
  }

  @Test
  void aBusyServersAnswerIsRetriedAfterItsRetryAfter() throws Exception {
    // one request body at a time: while another upload holds it, a request gets 503 Retry-After 1
    start(settings -> settings.put("server.maxInFlightBytes", 1L));
    Path file = directory.resolve("busy.log");
    Files.writeString(file, "2026-01-01 00:00:00 busy one\n2026-01-01 00:00:01 busy two\n");
    byte[] heldBody =
        "2026-01-01 00:00:02 held line\n".repeat(1_000).getBytes(StandardCharsets.US_ASCII);
    URI url = URI.create(server.url());
    try (Socket upload = new Socket(url.getHost(), url.getPort())) {
      // an upload in progress holds the server's whole in-flight budget
      OutputStream out = upload.getOutputStream();
      out.write(
          ("POST /services/collector/raw?index=logs&sourcetype=generic_single_line HTTP/1.1\r\n"
                  + "Host: test\r\nAuthorization: Splunk tok\r\nContent-Length: "
                  + heldBody.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(heldBody, 0, 1_000);
      out.flush();
      Thread.sleep(200);
      long started = System.nanoTime();
      CompletableFuture<Run> run =
          CompletableFuture.supplyAsync(() -> ingest("tok", file.toString()));
      Thread.sleep(1_500);
      assertThat(run).as("still retrying while the budget is held").isNotDone();
      upload.close(); // the upload given up: its budget is free

      Run ingested = run.get();
      assertThat(ingested.exit()).as(ingested.err()).isZero();
      assertThat((System.nanoTime() - started) / 1e9).isGreaterThan(1.5);
    }
    assertThat(count("index=logs busy")).isEqualTo(2);
  }

  @Test
  void aRefusalIsReportedWithTheServersReason() throws Exception {
    Path file = directory.resolve("refused.log");
    Files.writeString(file, "2026-01-01 00:00:00 never stored\n");

    Run run = ingest("not-a-token", file.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("HTTP 403").contains("Invalid token");
    assertThat(count("index=logs never")).isZero();
  }

  @Test
  void aConnectionTheServerClosedWhileIdleIsReplaced() throws Exception {
    Path file = directory.resolve("idle.log");
    Files.writeString(file, "2026-01-01 00:00:00 idle first\n2026-01-01 00:00:01 idle second\n");
    long firstLine = "2026-01-01 00:00:00 idle first\n".length();
    QuarryClient client = QuarryClient.builder(URI.create(server.url())).hecToken("tok").build();
    try (FileChannel channel = FileChannel.open(file)) {
      client.sendRaw(channel, 0, firstLine, "generic_single_line", "logs", null, "idle");
      Thread.sleep(2_500); // past server.idleTimeoutSeconds: the kept connection is closed
      client.sendRaw(
          channel,
          firstLine,
          Files.size(file) - firstLine,
          "generic_single_line",
          "logs",
          null,
          "idle");
    }
    assertThat(count("index=logs idle")).isEqualTo(2);
    assertThat(count("index=logs idle second")).isEqualTo(1);
  }
}
