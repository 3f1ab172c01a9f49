package io.quarry.server.cli;

import io.quarry.codecs.store.Fsck;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code quarry fsck}: offline integrity check of a data directory. */
@Command(
    name = "fsck",
    mixinStandardHelpOptions = true,
    description = {
      "Check every bucket of a data directory (stop the server first): checksums of every file,",
      "every journal block; every metric bucket's chunks and points, every metric log record.",
      "Exit status 0 when all are clean, 1 when damage was found."
    })
final class FsckCommand implements Callable<Integer> {
  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      defaultValue = "./data",
      description = "The data directory (default ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--repair",
      description =
          "Move damaged buckets to <index>/quarantine/ so the server starts without them"
              + " (damaged WAL files are left for the server, which replays what it can).")
  boolean repair;

  @Override
  public Integer call() throws Exception {
    List<Fsck.BucketCheck> checks = Fsck.check(dataDir, repair);
    int damaged = 0;
    for (Fsck.BucketCheck check : checks) {
      String verdict = check.clean() ? "ok" : (repair ? "DAMAGED, quarantined" : "DAMAGED");
      System.out.printf(
          "%-20s bucket %-6s %s%s%n",
          check.index(),
          check.bucket(),
          verdict,
          check.problem() == null ? "" : ": " + check.problem());
      if (!check.clean()) {
        damaged++;
      }
    }
    List<Fsck.WalCheck> walChecks = Fsck.checkWal(dataDir);
    int damagedWal = 0;
    for (Fsck.WalCheck check : walChecks) {
      String verdict;
      if (check.file().clean()) {
        verdict = "ok";
      } else if (check.file().unsupported()) {
        damagedWal++;
        verdict =
            "UNREADABLE: "
                + check.file().problem()
                + "; the server does not start while the file is there (it never deletes"
                + " it: run the Quarry that wrote it, or move the file out of wal/ to start"
                + " without its events)";
      } else if (check.file().tornTail()) {
        verdict =
            "ok, torn tail at byte "
                + check.file().offset()
                + " (never acknowledged; cut on start)";
      } else {
        damagedWal++;
        verdict =
            "DAMAGED: "
                + check.file().problem()
                + " at byte "
                + check.file().offset()
                + "; acknowledged events from there on cannot be replayed (the server replays"
                + " the records before it, then moves the file to quarantine/)";
      }
      System.out.printf(
          "%-20s wal %-9s %s%n", check.index(), check.file().file().getFileName(), verdict);
    }
    MetricFsckReport metrics = MetricFsckReport.run(dataDir, repair, System.out);
    System.out.println(
        checks.size()
            + " buckets checked, "
            + damaged
            + " damaged; "
            + walChecks.size()
            + " WAL files checked, "
            + damagedWal
            + " damaged; "
            + metrics.summary());
    return damagedWal == 0 && (damaged == 0 || repair) && metrics.clean(repair) ? 0 : 1;
  }
}
