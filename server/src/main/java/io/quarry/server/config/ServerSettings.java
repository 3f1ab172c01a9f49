package io.quarry.server.config;

/**
 * The checks of the {@code server} section ({@link Server}): its limits and timeouts, and whether
 * its listener may serve plain HTTP.
 */
final class ServerSettings {
  /** The largest {@code server.maxRequestBytes}: 512 MiB. */
  static final long MAX_REQUEST_BYTES = 512L << 20;

  private ServerSettings() {}

  /** Checks the listener's limits once their defaults are in; the message names the setting. */
  static void check(
      long maxInFlightBytes,
      int port,
      long maxRequestBytes,
      int workerThreads,
      int ingestWorkerThreads,
      int writeTimeoutSeconds,
      int idleTimeoutSeconds,
      int requestReadTimeoutSeconds,
      int maxConnections) {
    Bounds.positive(maxInFlightBytes, "server.maxInFlightBytes");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("server.port must be 0..65535, not " + port);
    }
    // at most 512 MiB: one request is one write-ahead log record, which holds at most 1 GiB
    // (its body plus each event's time, range and fields); a larger one could not be stored
    if (maxRequestBytes < 1024 || maxRequestBytes > MAX_REQUEST_BYTES) {
      throw new IllegalArgumentException(
          "server.maxRequestBytes must be 1024.." + MAX_REQUEST_BYTES + ", not " + maxRequestBytes);
    }
    Bounds.atLeastOne(workerThreads, "server.workerThreads");
    Bounds.atLeastOne(ingestWorkerThreads, "server.ingestWorkerThreads");
    Bounds.atLeastOne(writeTimeoutSeconds, "server.writeTimeoutSeconds");
    Bounds.atLeastOne(idleTimeoutSeconds, "server.idleTimeoutSeconds");
    Bounds.atLeastOne(requestReadTimeoutSeconds, "server.requestReadTimeoutSeconds");
    Bounds.atLeastOne(maxConnections, "server.maxConnections");
  }

  /** See {@link Server#plaintextRefusal()}. */
  static String plaintextRefusal(Server server) {
    if (server.tls().enabled() || server.allowPlaintext() || isLoopback(server.bind())) {
      return null;
    }
    return "server.bind is "
        + server.bind()
        + ", which is reachable from the network, and TLS is off: passwords, tokens and events"
        + " would cross it in the clear. Set server.tls.enabled: true (with server.tls.certificate"
        + " and server.tls.key, or without them for a generated self-signed certificate), or set"
        + " server.allowPlaintext: true if a TLS-terminating proxy or a trusted network protects"
        + " this port (env QUARRY_TLS_ENABLED, QUARRY_ALLOW_PLAINTEXT)";
  }

  private static boolean isLoopback(String address) {
    try {
      for (java.net.InetAddress resolved : java.net.InetAddress.getAllByName(address)) {
        if (!resolved.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (java.net.UnknownHostException e) {
      return false; // binding will fail and say so
    }
  }
}
