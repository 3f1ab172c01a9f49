package io.quarry.server.cli;

import io.quarry.server.Version;
import picocli.CommandLine.Command;

/** {@code quarry version}. */
@Command(name = "version", mixinStandardHelpOptions = true, description = "Print the version.")
final class VersionCommand implements Runnable {
  @Override
  public void run() {
    System.out.println(
        "quarry "
            + Version.current()
            + " (Java "
            + Runtime.version()
            + ", "
            + System.getProperty("java.vm.name")
            + ")");
  }
}
