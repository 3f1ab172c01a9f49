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
      "every journal block. Exit status 0 when all are clean, 1 when damage was found."
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
          "Move damaged buckets to <index>/quarantine/ so the server starts without them.")
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
    System.out.println(checks.size() + " buckets checked, " + damaged + " damaged");
    return damaged == 0 || repair ? 0 : 1;
  }
}
