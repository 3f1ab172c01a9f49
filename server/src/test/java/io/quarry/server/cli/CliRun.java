package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the {@code quarry} command line in this JVM, as a person would from a shell. */
final class CliRun {
  private CliRun() {}

  /**
   * Runs the CLI and returns what it printed on both streams; the exit code must be {@code exit}.
   */
  static String printed(int exit, String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int actual;
    try {
      PrintStream both = new PrintStream(printed, true, StandardCharsets.UTF_8);
      System.setOut(both);
      System.setErr(both);
      actual = QuarryCli.commandLine().execute(args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(actual).as(text).isEqualTo(exit);
    return text;
  }
}
