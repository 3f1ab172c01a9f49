package io.quarry.server.cli;

import io.quarry.server.Version;
import io.quarry.server.config.ConfigException;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code quarry} command. */
@Command(
    name = "quarry",
    mixinStandardHelpOptions = true,
    versionProvider = QuarryCli.VersionProvider.class,
    description = "Quarry: a log search server with an SPL-style pipeline language.",
    subcommands = {
      ServerCommand.class,
      DemoCommand.class,
      SearchCommand.class,
      IngestCommand.class,
      IndexesCommand.class,
      FsckCommand.class,
      ReindexCommand.class,
      PluginsCommand.class,
      PasswdHashCommand.class,
      VersionCommand.class,
      CommandLine.HelpCommand.class
    })
public final class QuarryCli implements Runnable {

  public static void main(String[] args) {
    if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
      System.setProperty(
          "java.util.logging.SimpleFormatter.format", "%1$tFT%1$tT.%1$tL %4$s %3$s: %5$s%6$s%n");
    }
    // Netty and Lucene log through java.util.logging; keep their debug chatter out of the console.
    Logger.getLogger("io.netty").setLevel(Level.WARNING);
    System.exit(commandLine().execute(args));
  }

  static CommandLine commandLine() {
    CommandLine commandLine = new CommandLine(new QuarryCli());
    commandLine.setExecutionExceptionHandler(
        (exception, cmd, parseResult) -> {
          if (exception instanceof ConfigException
              || exception instanceof io.quarry.client.QuarryClientException
              || exception instanceof java.nio.file.NoSuchFileException
              || exception instanceof IllegalArgumentException
              || exception instanceof java.net.BindException) {
            cmd.getErr().println("quarry: " + describe(exception));
            return 2;
          }
          throw exception;
        });
    return commandLine;
  }

  private static String describe(Exception exception) {
    if (exception instanceof java.nio.file.NoSuchFileException missing) {
      return "no such file: " + missing.getFile();
    }
    if (exception instanceof java.net.BindException) {
      return "cannot listen: " + exception.getMessage() + " (is another server on that port?)";
    }
    return exception.getMessage();
  }

  @Override
  public void run() {
    CommandLine.usage(this, System.out);
  }

  /** Supplies {@code --version}. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"quarry " + Version.current()};
    }
  }
}
