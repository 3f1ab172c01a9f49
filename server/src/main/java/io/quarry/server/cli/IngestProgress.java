package io.quarry.server.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code quarry ingest}'s one-line progress bar on standard error, redrawn in place: bytes, MB/s,
 * lines per second and ETA. Lines are counted only in chunks read into memory (a {@code .gz}
 * file's): an uncompressed file is sent from the file and never read by {@code quarry ingest}, so
 * once such a chunk is acknowledged the bar shows no lines per second.
 */
final class IngestProgress {
  private final PrintStream out;
  private final long started = System.nanoTime();
  private long total;
  private long done;
  private long skipped;
  private long sentThisRun;
  private long lines;
  private boolean linesUnknown;
  private long lastDraw;

  IngestProgress(PrintStream out, long total) {
    this.out = out;
    this.total = Math.max(total, 1);
  }

  /**
   * A chunk the server acknowledged: {@code bytes} of the files on disk, {@code chunkLines} lines
   * (-1: not counted).
   */
  synchronized void advance(long bytes, long chunkLines) {
    done += bytes;
    sentThisRun += bytes;
    if (chunkLines < 0) {
      linesUnknown = true;
    } else {
      lines += chunkLines;
    }
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
          Locale.ROOT, "%.1f MB were loaded by an earlier run and not sent again%n", skipped / 1e6);
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
        "\r[%s%s] %3d%% %.1f/%.1f MB %.1f MB/s%s ETA %s   ",
        "=".repeat(filled),
        " ".repeat(width - filled),
        100 * shown / total,
        shown / 1e6,
        total / 1e6,
        rate / 1e6,
        linesUnknown ? "" : String.format(Locale.ROOT, " %.0f lines/s", lines / seconds),
        eta < 0 ? "-" : String.format(Locale.ROOT, "%d:%02d", eta / 60, eta % 60));
    out.flush();
  }
}
