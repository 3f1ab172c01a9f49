package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A Python virtual environment under {@code target/} with the packages a test needs, installed from
 * PyPI on first use. Without a {@code python3} that can make a venv, or with PyPI out of reach, the
 * calling test is skipped and says why (these tests check compatibility with other people's
 * clients; they cannot run where those clients cannot be installed).
 */
final class PythonVenv {
  private static final Path VENV = Path.of("target", "python-clients-venv");
  private static final ObjectMapper JSON = new ObjectMapper();

  private PythonVenv() {}

  /** The venv's python with {@code packages} installed (pip requirement specifiers). */
  static Path with(String... packages) throws Exception {
    Path python = VENV.resolve("bin/python");
    if (!Files.isExecutable(python)) {
      Assumptions.assumeTrue(
          run(List.of("python3", "-m", "venv", VENV.toString()), 120) != null,
          "no python3 with venv on this machine");
    }
    List<String> install =
        new ArrayList<>(List.of(python.toString(), "-m", "pip", "install", "--quiet"));
    install.addAll(List.of(packages));
    Assumptions.assumeTrue(
        run(install, 600) != null, "cannot install " + List.of(packages) + " from PyPI");
    return python;
  }

  /** Runs a script from the test resources with arguments; its output, or null when it failed. */
  static String script(Path python, String resource, String... args) throws Exception {
    Path script = Files.createTempFile("script", ".py");
    try (InputStream in = PythonVenv.class.getResourceAsStream(resource)) {
      Files.write(script, in.readAllBytes());
    }
    List<String> command = new ArrayList<>(List.of(python.toString(), script.toString()));
    command.addAll(List.of(args));
    return run(command, 120);
  }

  /**
   * Runs a script of the test resources with Splunk's Python SDK (splunk-sdk 2.1.0, installed on
   * first use) against a server on 127.0.0.1: its arguments are the server's port, then {@code
   * args} (the admin's password first); what it printed last, as JSON. A script that fails fails
   * the test (its output is on standard error).
   */
  static JsonNode splunkSdk(String resource, int port, String... args) throws Exception {
    Path python = with("splunk-sdk==2.1.0");
    List<String> all = new ArrayList<>(List.of("127.0.0.1", Integer.toString(port)));
    all.addAll(List.of(args));
    String output = script(python, resource, all.toArray(String[]::new));
    assertThat(output).as("the SDK script failed; its output is on standard error").isNotNull();
    return JSON.readTree(output.lines().reduce((a, b) -> b).orElseThrow());
  }

  /** Runs a command, returning its output, or null when it failed or timed out. */
  static String run(List<String> command, long timeoutSeconds) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output;
    try (InputStream in = process.getInputStream()) {
      output = in.readAllBytes();
    }
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      System.err.println(String.join(" ", command) + " failed:\n" + new String(output));
      return null;
    }
    return new String(output, StandardCharsets.UTF_8);
  }
}
