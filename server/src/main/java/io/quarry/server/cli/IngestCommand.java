package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code quarry ingest <file…>}: sends files to a running server through HEC's raw endpoint in
 * chunks cut at line ends, several requests in flight (the server indexes them in parallel), with a
 * progress bar on standard error.
 */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description = "Load files into a running server (one event per line), with a progress bar.")
final class IngestCommand implements Callable<Integer> {
  static final int CHUNK_BYTES = 4 * 1024 * 1024;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "Files to load.")
  List<Path> files;

  @Mixin ClientOptions server;

  @Option(
      names = "--sourcetype",
      required = true,
      paramLabel = "NAME",
      description = "Sourcetype of the files, e.g. access_combined, syslog.")
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

  @Override
  public Integer call() throws Exception {
    QuarryClient client = server.hec(token);
    long total = 0;
    for (Path file : files) {
      total += Files.size(file);
    }
    Progress progress = new Progress(System.err, total);
    int lanes = Math.max(1, parallel);
    ExecutorService senders = Executors.newFixedThreadPool(lanes);
    Semaphore inFlight = new Semaphore(lanes);
    List<Future<?>> sent = new ArrayList<>();
    try {
      for (Path file : files) {
        String source = file.toAbsolutePath().normalize().toString();
        forEachChunk(
            file,
            chunk -> {
              inFlight.acquire();
              sent.add(
                  senders.submit(
                      () -> {
                        try {
                          client.sendRaw(chunk, sourcetype, index, host, source);
                          progress.advance(chunk.length);
                        } finally {
                          inFlight.release();
                        }
                      }));
              failFast(sent);
            });
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

  /** Rethrows the first failed request without waiting for the rest. */
  private static void failFast(List<Future<?>> sent)
      throws ExecutionException, InterruptedException {
    for (Future<?> future : sent) {
      if (future.isDone()) {
        future.get();
      }
    }
  }

  /** Receives one chunk of whole lines. */
  @FunctionalInterface
  interface ChunkConsumer {
    void chunk(byte[] chunk) throws Exception;
  }

  /** Cuts a file into chunks of at most {@link #CHUNK_BYTES}, each ending at a line end. */
  private static void forEachChunk(Path file, ChunkConsumer consumer) throws Exception {
    byte[] buffer = new byte[CHUNK_BYTES];
    int filled = 0;
    try (InputStream in = Files.newInputStream(file)) {
      while (true) {
        int read = in.read(buffer, filled, buffer.length - filled);
        if (read > 0) {
          filled += read;
        }
        boolean atEnd = read < 0;
        if (filled == buffer.length || (atEnd && filled > 0)) {
          int cut = atEnd ? filled : lastLineEnd(buffer, filled);
          consumer.chunk(Arrays.copyOf(buffer, cut));
          System.arraycopy(buffer, cut, buffer, 0, filled - cut);
          filled -= cut;
        }
        if (atEnd && filled == 0) {
          return;
        }
      }
    }
  }

  /** The end of the last complete line in the buffer (the whole buffer for one giant line). */
  private static int lastLineEnd(byte[] buffer, int length) {
    for (int i = length - 1; i >= 0; i--) {
      if (buffer[i] == '\n') {
        return i + 1;
      }
    }
    return length;
  }

  /** A one-line progress bar redrawn in place. */
  static final class Progress {
    private final PrintStream out;
    private final long total;
    private final long started = System.nanoTime();
    private long sent;

    Progress(PrintStream out, long total) {
      this.out = out;
      this.total = Math.max(total, 1);
    }

    synchronized void advance(long bytes) {
      sent += bytes;
      draw();
    }

    synchronized void done() {
      draw();
      out.println();
    }

    private void draw() {
      int width = 30;
      int filled = (int) (width * sent / total);
      double seconds = Math.max((System.nanoTime() - started) / 1e9, 1e-3);
      out.printf(
          Locale.ROOT,
          "\r[%s%s] %3d%% %.1f/%.1f MB %.1f MB/s",
          "=".repeat(filled),
          " ".repeat(width - filled),
          100 * sent / total,
          sent / 1e6,
          total / 1e6,
          sent / 1e6 / seconds);
      out.flush();
    }
  }
}
