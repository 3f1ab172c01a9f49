package io.quarry.server.cli;

import io.quarry.server.auth.PasswordHash;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code quarry passwd-hash}: reads a password from standard input (its first line) and prints the
 * PBKDF2 hash to put in {@code auth.users[].password}. The password is never a command-line
 * argument, where other users of the machine and the shell history would see it.
 */
@Command(
    name = "passwd-hash",
    mixinStandardHelpOptions = true,
    description = {
      "Read a password from standard input and print its salted PBKDF2 hash for"
          + " auth.users[].password in quarry.yml.",
      "Example: quarry passwd-hash < password.txt"
    })
final class PasswdHashCommand implements Callable<Integer> {
  @Override
  public Integer call() throws IOException {
    String password;
    if (System.console() != null) {
      char[] typed = System.console().readPassword("Password: ");
      password = typed == null ? null : new String(typed);
    } else {
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      password = in.readLine();
    }
    if (password == null || password.isEmpty()) {
      System.err.println("quarry passwd-hash: no password on standard input");
      return 2;
    }
    System.out.println(PasswordHash.hash(password));
    return 0;
  }
}
