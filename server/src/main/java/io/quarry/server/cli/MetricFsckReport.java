package io.quarry.server.cli;

import io.quarry.codecs.metricstore.MetricFsck;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The metric indexes' part of {@code quarry fsck}: a line per warm bucket (series, chunks, points,
 * bytes per point, or what is damaged) and per log file (records and points, a torn tail, or
 * damage), and the counts for the summary line.
 */
final class MetricFsckReport {
  private final int buckets;
  private final int damagedBuckets;
  private final int logs;
  private final int damagedLogs;

  private MetricFsckReport(int buckets, int damagedBuckets, int logs, int damagedLogs) {
    this.buckets = buckets;
    this.damagedBuckets = damagedBuckets;
    this.logs = logs;
    this.damagedLogs = damagedLogs;
  }

  static MetricFsckReport run(Path dataDir, boolean repair, PrintStream out) throws IOException {
    List<MetricFsck.BucketCheck> buckets = MetricFsck.checkBuckets(dataDir, repair);
    int damagedBuckets = 0;
    for (MetricFsck.BucketCheck check : buckets) {
      if (check.clean()) {
        out.printf(
            Locale.ROOT,
            "%-20s metric bucket %-6s ok: %d series, %d chunks, %d points, %.3f bytes/point%n",
            check.index(),
            check.bucket(),
            check.series(),
            check.chunks(),
            check.points(),
            check.points() == 0 ? 0.0 : check.bytes() / (double) check.points());
      } else {
        damagedBuckets++;
        out.printf(
            "%-20s metric bucket %-6s %s: %s%n",
            check.index(),
            check.bucket(),
            repair ? "DAMAGED, quarantined" : "DAMAGED",
            check.problem());
      }
    }
    List<MetricFsck.LogCheck> logs = MetricFsck.checkLogs(dataDir);
    int damagedLogs = 0;
    for (MetricFsck.LogCheck check : logs) {
      String verdict;
      if (check.clean()) {
        verdict = "ok: " + check.records() + " records, " + check.points() + " points";
      } else if (check.tornTail()) {
        verdict =
            "ok, torn tail at byte "
                + check.offset()
                + " (never acknowledged; cut on start) after "
                + check.points()
                + " points";
      } else {
        damagedLogs++;
        verdict =
            "DAMAGED: "
                + check.problem()
                + " at byte "
                + check.offset()
                + "; acknowledged points from there on cannot be replayed (the server replays the"
                + " records before it, then sets the rest aside in quarantine/)";
      }
      out.printf("%-20s metric log %-9s %s%n", check.index(), check.file().getFileName(), verdict);
    }
    return new MetricFsckReport(buckets.size(), damagedBuckets, logs.size(), damagedLogs);
  }

  String summary() {
    return buckets
        + " metric buckets checked, "
        + damagedBuckets
        + " damaged; "
        + logs
        + " metric log files checked, "
        + damagedLogs
        + " damaged";
  }

  boolean clean(boolean repaired) {
    return damagedLogs == 0 && (damagedBuckets == 0 || repaired);
  }
}
