package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import io.quarry.server.cli.FileChunks.ChunkConsumer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code quarry ingest <files or directories…>}: sends files to a running server through HEC's raw
 * endpoint in chunks cut at line ends, several requests in flight (the server indexes them in
 * parallel), with a progress bar on standard error. Directories are walked (hidden files skipped),
 * {@code .gz} files are read through gzip, and what the server acknowledged is checkpointed (see
 * {@link IngestCheckpoints}) so a re-run after an interruption sends only the rest. With {@code
 * --follow} it keeps reading files as they grow, like {@code tail -f}.
 */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description =
        "Load files or directories into a running server, with a progress bar; re-runs resume.")
final class IngestCommand implements Callable<Integer> {
  @Parameters(
      paramLabel = "PATH",
      arity = "1..*",
      description = "Files or directories to load (.gz files are decompressed).")
  List<Path> paths;

  @Mixin ClientOptions server;

  @Option(
      names = "--metrics",
      description =
          "The files hold metric data points (CSV with metric_name, _value, _time columns, or"
              + " JSON lines) for a metric index: sent as HEC metric envelopes (docs/metrics.md).")
  boolean metrics;

  @Option(
      names = "--sourcetype",
      paramLabel = "NAME",
      description = "Sourcetype of the files, e.g. access_combined, syslog, log4j.")
  String sourcetype;

  @Option(
      names = "--index",
      paramLabel = "NAME",
      defaultValue = "main",
      description = "Target index (default ${DEFAULT-VALUE}).")
  String index;

  @Option(
      names = "--host",
      paramLabel = "NAME",
      description = "The host field (default: the server's host name).")
  String host;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      description = "HEC token (default $QUARRY_HEC_TOKEN, else <data-dir>/.hec-token).")
  String token;

  @Option(
      names = "--parallel",
      paramLabel = "N",
      defaultValue = "2",
      description = "Requests in flight at once (default ${DEFAULT-VALUE}).")
  int parallel;

  @Option(
      names = "--checkpoints",
      paramLabel = "FILE",
      description =
          "Where acknowledged chunks are recorded (default ~/.quarry/ingest-checkpoints.json).")
  Path checkpointFile;

  @Option(
      names = "--no-resume",
      description = "Send everything again, ignoring and not recording checkpoints.")
  boolean noResume;

  @Option(
      names = "--follow",
      description = "After loading, keep sending lines appended to the files (Ctrl-C stops).")
  boolean follow;

  @Override
  public Integer call() throws Exception {
    List<Path> files = expand(paths);
    if (files.isEmpty()) {
      System.err.println("quarry ingest: no files under " + paths);
      return 1;
    }
    QuarryClient client = server.hec(token);
    if (metrics) {
      try {
        MetricFileIngest.send(client, files, index, System.err);
        return 0;
      } catch (IllegalArgumentException e) {
        System.err.println("quarry ingest --metrics: " + e.getMessage());
        return 1;
      }
    }
    if (sourcetype == null) {
      System.err.println("quarry ingest: --sourcetype is required (or --metrics)");
      return 2;
    }
    String serverUrl = LocalCredentials.url(server.url, server.dataDir);
    IngestCheckpoints checkpoints =
        noResume
            ? null
            : IngestCheckpoints.open(
                checkpointFile != null
                    ? checkpointFile
                    : Path.of(
                        System.getProperty("user.home"), ".quarry", "ingest-checkpoints.json"));
    long total = 0;
    List<String> keys = new ArrayList<>();
    for (Path file : files) {
      total += Files.size(file);
      keys.add(checkpoints == null ? null : IngestCheckpoints.key(serverUrl, index, file));
    }
    Progress progress = new Progress(System.err, total);
    int lanes = Math.max(1, parallel);
    ExecutorService senders = Executors.newFixedThreadPool(lanes);
    Semaphore inFlight = new Semaphore(lanes);
    List<Future<?>> sent = new ArrayList<>();
    // one buffer more than requests in flight: the next chunk is read while they are sent
    FileChunks chunks = new FileChunks(lanes + 1);
    try {
      ChunkConsumer[] consumers = new ChunkConsumer[files.size()];
      long[] offsets = new long[files.size()];
      for (int f = 0; f < files.size(); f++) {
        String key = keys.get(f);
        String source = files.get(f).toAbsolutePath().normalize().toString();
        consumers[f] =
            (buffer, length, start, end, consumed) -> {
              List<long[]> parts =
                  key == null
                      ? List.of(new long[] {start, end})
                      : checkpoints.missing(key, start, end);
              long missingBytes = 0;
              for (long[] part : parts) {
                missingBytes += part[1] - part[0];
              }
              progress.skip(consumed - consumed * missingBytes / Math.max(1, end - start));
              boolean whole =
                  parts.size() == 1 && parts.get(0)[0] == start && parts.get(0)[1] == end;
              for (long[] part : parts) {
                // the usual case sends the buffer itself and releases it when answered; parts
                // of a chunk sent before (a resumed run) are copied and the buffer released now
                byte[] body =
                    whole
                        ? buffer
                        : Arrays.copyOfRange(
                            buffer, (int) (part[0] - start), (int) (part[1] - start));
                int bodyLength = (int) (part[1] - part[0]);
                long partConsumed = consumed * (part[1] - part[0]) / Math.max(1, end - start);
                inFlight.acquire();
                sent.add(
                    senders.submit(
                        () -> {
                          try {
                            client.sendRaw(body, 0, bodyLength, sourcetype, index, host, source);
                            if (key != null) {
                              checkpoints.markDone(key, part[0], part[1]);
                            }
                            progress.advance(partConsumed, FileChunks.lines(body, bodyLength));
                          } finally {
                            if (whole) {
                              chunks.release(buffer);
                            }
                            inFlight.release();
                          }
                          return null;
                        }));
              }
              if (!whole) {
                chunks.release(buffer);
              }
              failFast(sent);
            };
        long resumeAt =
            key == null || FileChunks.isGzip(files.get(f)) ? 0 : checkpoints.prefixEnd(key);
        progress.skip(resumeAt);
        offsets[f] = chunks.forEach(files.get(f), resumeAt, follow, consumers[f]);
      }
      if (follow) {
        follow(files, offsets, chunks, consumers, progress);
      }
      for (Future<?> future : sent) {
        future.get();
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    } finally {
      senders.shutdownNow();
    }
    progress.done();
    return 0;
  }

  /**
   * Keeps sending what is appended to the files: every second each file is read on from where it
   * was left; a file that got shorter (truncated or rotated in place) is read again from the start.
   * Compressed files do not grow and are not followed.
   */
  private static void follow(
      List<Path> files,
      long[] offsets,
      FileChunks chunks,
      ChunkConsumer[] consumers,
      Progress progress)
      throws Exception {
    progress.following(files.size());
    while (!Thread.currentThread().isInterrupted()) {
      Thread.sleep(1000);
      for (int i = 0; i < files.size(); i++) {
        Path file = files.get(i);
        if (FileChunks.isGzip(file) || !Files.exists(file)) {
          continue;
        }
        long size = Files.size(file);
        if (size < offsets[i]) {
          offsets[i] = 0;
        }
        if (size > offsets[i]) {
          progress.grow(size - offsets[i]);
          offsets[i] = chunks.forEach(file, offsets[i], true, consumers[i]);
        }
      }
    }
  }

  /** Files under the paths, directories walked in name order, hidden files left out. */
  static List<Path> expand(List<Path> paths) throws IOException {
    List<Path> files = new ArrayList<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        try (Stream<Path> walk = Files.walk(path)) {
          walk.filter(Files::isRegularFile)
              .filter(
                  p ->
                      !path.relativize(p).toString().startsWith(".")
                          && !p.getFileName().toString().startsWith("."))
              .sorted()
              .forEach(files::add);
        }
      } else if (Files.isRegularFile(path)) {
        files.add(path);
      } else {
        throw new NoSuchFileException(path.toString(), null, "no such file or directory");
      }
    }
    return files;
  }

  /** Rethrows the first failed request without waiting for the rest; forgets finished ones. */
  private static void failFast(List<Future<?>> sent)
      throws ExecutionException, InterruptedException {
    for (java.util.Iterator<Future<?>> it = sent.iterator(); it.hasNext(); ) {
      Future<?> future = it.next();
      if (future.isDone()) {
        future.get();
        it.remove();
      }
    }
  }

  /** A one-line progress bar redrawn in place: bytes, lines per second, ETA. */
  static final class Progress {
    private final PrintStream out;
    private final long started = System.nanoTime();
    private long total;
    private long done;
    private long skipped;
    private long sentThisRun;
    private long lines;
    private long lastDraw;

    Progress(PrintStream out, long total) {
      this.out = out;
      this.total = Math.max(total, 1);
    }

    /** A chunk the server acknowledged: {@code bytes} of the files on disk. */
    synchronized void advance(long bytes, long chunkLines) {
      done += bytes;
      sentThisRun += bytes;
      lines += chunkLines;
      draw(false);
    }

    /** A chunk acknowledged in an earlier run, not sent again. */
    synchronized void skip(long bytes) {
      done += bytes;
      skipped += bytes;
      draw(false);
    }

    synchronized void grow(long bytes) {
      total += bytes;
    }

    synchronized void following(int files) {
      draw(true);
      out.printf(Locale.ROOT, "%nfollowing %d file(s); Ctrl-C stops%n", files);
    }

    synchronized void done() {
      draw(true);
      out.println();
      if (skipped > 0) {
        out.printf(
            Locale.ROOT,
            "%.1f MB were loaded by an earlier run and not sent again%n",
            skipped / 1e6);
      }
    }

    private void draw(boolean force) {
      long now = System.nanoTime();
      if (!force && now - lastDraw < 200_000_000L) {
        return;
      }
      lastDraw = now;
      int width = 30;
      long shown = Math.min(done, total);
      int filled = (int) (width * shown / total);
      double seconds = Math.max((now - started) / 1e9, 1e-3);
      double rate = sentThisRun / seconds;
      long eta = rate > 0 ? (long) ((total - shown) / rate) : -1;
      out.printf(
          Locale.ROOT,
          "\r[%s%s] %3d%% %.1f/%.1f MB %.1f MB/s %.0f lines/s ETA %s   ",
          "=".repeat(filled),
          " ".repeat(width - filled),
          100 * shown / total,
          shown / 1e6,
          total / 1e6,
          rate / 1e6,
          lines / seconds,
          eta < 0 ? "-" : String.format(Locale.ROOT, "%d:%02d", eta / 60, eta % 60));
      out.flush();
    }
  }
}
