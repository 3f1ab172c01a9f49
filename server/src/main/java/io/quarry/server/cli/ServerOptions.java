package io.quarry.server.cli;

import io.quarry.server.config.QuarryConfig;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The flags shared by {@code server} and {@code demo}; each overrides the file and environment. */
final class ServerOptions {
  @Mixin ConfigOptions files;

  @Option(
      names = "--bind",
      paramLabel = "ADDR",
      description = "Address to listen on (default 127.0.0.1; env QUARRY_BIND).")
  String bind;

  @Option(
      names = "--port",
      paramLabel = "N",
      description =
          "Port for HTTP, HEC and search (default 8088; 0 picks a free one; env QUARRY_PORT).")
  Integer port;

  QuarryConfig load() throws IOException {
    Map<String, String> flags = new LinkedHashMap<>();
    if (bind != null) {
      flags.put("server.bind", bind);
    }
    if (port != null) {
      flags.put("server.port", port.toString());
    }
    return files.load(flags);
  }
}
