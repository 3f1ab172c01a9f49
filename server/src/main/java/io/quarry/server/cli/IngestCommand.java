package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
 * --follow} it keeps reading files as they grow, like {@code tail -f}. An uncompressed file is
 * never read into the JVM: only where to cut it ({@link FileRegions}), its chunks sent from the
 * file by {@code sendfile} over plain HTTP (the client's own CPU is taken from the server's on a
 * shared machine).
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
      description =
          "Requests in flight at once (default: twice the cores, at least 3 and at most 12).")
  int parallel = defaultParallel(Runtime.getRuntime().availableProcessors());

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

  /**
   * Requests in flight by default on a machine of {@code cores}: twice the cores, at least 3, at
   * most 12. The server indexes one request per core at once (its {@code ingest.pipelines}) and
   * hands a pipeline on while a request waits for the log's fsync; with only as many requests in
   * flight as pipelines, a core idled through every body's transfer and every fsync (session 42: 2
   * on 2 cores). Besides one per pipeline, the others are on the wire or wait for an fsync (several
   * may wait for the same one). The client's cores stand for the server's, which is right on the
   * server's machine, where ingest is fastest; a remote server only gains from more requests in
   * flight while the network carries them. At most 12: 48 MiB of 4 MiB bodies, under the smallest
   * {@code server.maxInFlightBytes} (64 MiB), so the default never makes a server answer busy on
   * its own.
   */
  static int defaultParallel(int cores) {
    return Math.clamp(2L * cores, 3, 12);
  }

  @Override
  public Integer call() throws Exception {
    List<Path> files = expand(paths);
    if (files.isEmpty()) {
      System.err.println("quarry ingest: no files under " + paths);
      return 1;
    }
    try (QuarryClient client = server.hec(token)) {
      return load(files, client);
    }
  }

  private int load(List<Path> files, QuarryClient client) throws Exception {
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
    IngestProgress progress = new IngestProgress(System.err, total);
    int lanes = Math.max(1, parallel);
    long[] offsets = new long[files.size()];
    try (ChunkSender sender = new ChunkSender(lanes, checkpoints, progress)) {
      // one buffer more than requests in flight: the next chunk is read while they are sent
      Loader loader = new Loader(client, sender, new FileChunks(lanes + 1), new FileRegions());
      for (int f = 0; f < files.size(); f++) {
        Path file = files.get(f);
        String key = keys.get(f);
        long resumeAt = key == null || FileChunks.isGzip(file) ? 0 : checkpoints.prefixEnd(key);
        progress.skip(resumeAt);
        offsets[f] = loader.load(file, key, resumeAt);
      }
      boolean interrupted =
          follow && follow(files, keys, offsets, loader, progress, sender, checkpoints, serverUrl);
      sender.finish();
      if (interrupted) {
        Thread.currentThread().interrupt(); // kept for the caller, once the sends are done
      }
    }
    progress.done();
    return 0;
  }

  /**
   * Keeps sending what is appended to the files: every second each file is read on from where it
   * was left; a file that got shorter (truncated or rotated in place) is read again from the start,
   * as a new file: the old content's checkpoints forgotten once its sends are done, its key taken
   * again (else the new lines up to the old length would count as acknowledged). Compressed files
   * do not grow and are not followed. An interrupt of the thread (a program running the command
   * stops it; Ctrl-C ends the process) ends following: the sends in flight still finish, and the
   * command ends as a load does.
   *
   * @return true: following ended by an interrupt, whose flag is cleared (so the sends in flight
   *     can be waited for) and is the caller's to set again
   */
  private boolean follow(
      List<Path> files,
      List<String> keys,
      long[] offsets,
      Loader loader,
      IngestProgress progress,
      ChunkSender sender,
      IngestCheckpoints checkpoints,
      String serverUrl)
      throws Exception {
    progress.following(files.size());
    try {
      while (!Thread.interrupted()) {
        Thread.sleep(1000);
        for (int i = 0; i < files.size(); i++) {
          Path file = files.get(i);
          if (FileChunks.isGzip(file) || !Files.exists(file)) {
            continue;
          }
          long size = Files.size(file);
          if (size < offsets[i]) {
            offsets[i] = 0;
            if (keys.get(i) != null) {
              sender.finish(); // no send of the old content records a range after this
              checkpoints.forget(keys.get(i));
              keys.set(i, IngestCheckpoints.key(serverUrl, index, file));
            }
          }
          if (size > offsets[i]) {
            progress.grow(size - offsets[i]);
            offsets[i] = loader.load(file, keys.get(i), offsets[i]);
          }
        }
      }
    } catch (InterruptedException stopped) {
      // the flag is cleared: the caller waits for the sends in flight
    }
    return true;
  }

  /**
   * Cuts a file into chunks and hands them to the sender: an uncompressed file as regions sent from
   * the file itself ({@link FileRegions}; {@code sendfile} over plain HTTP, no byte through the
   * heap), a {@code .gz} file decompressed into {@link FileChunks}' reused buffers.
   */
  private final class Loader {
    private final QuarryClient client;
    private final ChunkSender sender;
    private final FileChunks chunks;
    private final FileRegions regions;

    Loader(QuarryClient client, ChunkSender sender, FileChunks chunks, FileRegions regions) {
      this.client = client;
      this.sender = sender;
      this.chunks = chunks;
      this.regions = regions;
    }

    /** Sends the file from {@code from}; returns the offset after the last byte handed over. */
    long load(Path file, String key, long from) throws Exception {
      String source = file.toAbsolutePath().normalize().toString();
      if (FileChunks.isGzip(file)) {
        return chunks.forEach(
            file,
            from,
            follow,
            (buffer, length, start, end, consumed) ->
                sender.send(
                    key,
                    start,
                    end,
                    consumed,
                    new ChunkSender.Body() {
                      @Override
                      public void send(long partStart, long partEnd) {
                        client.sendRaw(
                            buffer,
                            (int) (partStart - start),
                            (int) (partEnd - partStart),
                            sourcetype,
                            index,
                            host,
                            source);
                      }

                      @Override
                      public long lines(long partStart, long partEnd) {
                        return FileChunks.lines(
                            buffer, (int) (partStart - start), (int) (partEnd - partStart));
                      }

                      @Override
                      public void release() {
                        chunks.release(buffer);
                      }
                    }));
      }
      OpenFile open = OpenFile.open(file);
      try {
        return regions.forEach(
            open.channel(),
            from,
            follow,
            (start, end) -> {
              open.hold();
              sender.send(
                  key,
                  start,
                  end,
                  end - start,
                  new ChunkSender.Body() {
                    @Override
                    public void send(long partStart, long partEnd) {
                      client.sendRaw(
                          open.channel(),
                          partStart,
                          partEnd - partStart,
                          sourcetype,
                          index,
                          host,
                          source);
                    }

                    @Override
                    public long lines(long partStart, long partEnd) {
                      return -1; // never read: not counted
                    }

                    @Override
                    public void release() throws IOException {
                      open.release();
                    }
                  });
            });
      } finally {
        open.release();
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
}
