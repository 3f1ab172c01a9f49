package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.auth.PasswordHash;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code quarry passwd-hash}: the password from standard input, its PBKDF2 hash on the output. */
class PasswdHashCommandTest {
  @Test
  void printsAHashOfTheFirstLineOfStandardInput() {
    InputStream in = System.in;
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int exit;
    try {
      System.setIn(new ByteArrayInputStream("s3cret pw\n".getBytes(StandardCharsets.UTF_8)));
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      exit = QuarryCli.commandLine().execute("passwd-hash");
    } finally {
      System.setIn(in);
      System.setOut(out);
    }
    assertThat(exit).isZero();
    String hash = printed.toString(StandardCharsets.UTF_8).strip();
    assertThat(hash).startsWith("pbkdf2:sha256:210000:").doesNotContain("s3cret");
    assertThat(PasswordHash.parse(hash).matches("s3cret pw")).isTrue();
    assertThat(PasswordHash.parse(hash).matches("s3cret")).isFalse();
  }
}
