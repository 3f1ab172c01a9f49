package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/** The HTTP listener. */
public record Server(
    @JsonProperty("bind") String bind,
    @JsonProperty("port") Integer port,
    @JsonProperty("maxRequestBytes") Long maxRequestBytes,
    @JsonProperty("workerThreads") Integer workerThreads,
    @JsonProperty("maxInFlightBytes") Long maxInFlightBytes,
    @JsonProperty("ingestWorkerThreads") Integer ingestWorkerThreads,
    @JsonProperty("writeTimeoutSeconds") Integer writeTimeoutSeconds,
    @JsonProperty("idleTimeoutSeconds") Integer idleTimeoutSeconds,
    @JsonProperty("requestReadTimeoutSeconds") Integer requestReadTimeoutSeconds,
    @JsonProperty("maxConnections") Integer maxConnections,
    @JsonProperty("tls") Tls tls,
    @JsonProperty("allowPlaintext") Boolean allowPlaintext) {
  public Server {
    maxInFlightBytes =
        Objects.requireNonNullElse(
            maxInFlightBytes, Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4));
    bind = Objects.requireNonNullElse(bind, "127.0.0.1");
    port = Objects.requireNonNullElse(port, 8088);
    maxRequestBytes = Objects.requireNonNullElse(maxRequestBytes, 64L * 1024 * 1024);
    workerThreads =
        Objects.requireNonNullElse(
            workerThreads, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
    ingestWorkerThreads =
        Objects.requireNonNullElse(
            ingestWorkerThreads, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
    writeTimeoutSeconds = Objects.requireNonNullElse(writeTimeoutSeconds, 30);
    idleTimeoutSeconds = Objects.requireNonNullElse(idleTimeoutSeconds, 60);
    requestReadTimeoutSeconds = Objects.requireNonNullElse(requestReadTimeoutSeconds, 120);
    maxConnections = Objects.requireNonNullElse(maxConnections, 10_000);
    ServerSettings.check(
        maxInFlightBytes,
        port,
        maxRequestBytes,
        workerThreads,
        ingestWorkerThreads,
        writeTimeoutSeconds,
        idleTimeoutSeconds,
        requestReadTimeoutSeconds,
        maxConnections);
    tls =
        Objects.requireNonNullElseGet(
            tls, () -> new Tls(null, null, null, null, null, null, null, null));
    allowPlaintext = Objects.requireNonNullElse(allowPlaintext, false);
  }

  /**
   * Why this listener may not start, or null when it may: plain HTTP on an address other than
   * loopback needs {@code server.allowPlaintext: true} (passwords and tokens would cross the
   * network in the clear).
   */
  public String plaintextRefusal() {
    return ServerSettings.plaintextRefusal(this);
  }
}
