package io.quarry.server.cli;

import io.quarry.client.QuarryClient;
import io.quarry.client.TlsTrust;
import io.quarry.server.tls.GeneratedCertificate;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import picocli.CommandLine.Option;

/**
 * The flags of the commands that talk to a running server: where it is, which certificate to trust,
 * and where its secrets are.
 */
final class ClientOptions {
  @Option(
      names = "--url",
      paramLabel = "URL",
      description =
          "Server URL (default $QUARRY_URL, else https://127.0.0.1:8088 when <data-dir>/tls/ca.pem"
              + " exists, else http://127.0.0.1:8088).")
  String url;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description =
          "Data directory of a local server, for its generated password, token or TLS certificate"
              + " (default ./data).")
  String dataDir;

  @Option(
      names = "--ca-cert",
      paramLabel = "PATH",
      description =
          "PEM file of the CA (or certificate) to trust for an https:// URL (default $QUARRY_CA_CERT;"
              + " for a server on this machine, <data-dir>/tls/ca.pem when it exists; else the"
              + " JDK's trusted CAs).")
  Path caCertificate;

  @Option(
      names = "--insecure",
      description =
          "INSECURE: accept any TLS certificate for any host name, so anyone on the network path"
              + " can read the password or token. For experiments only; prefer --ca-cert.")
  boolean insecure;

  /** A client for search and admin endpoints. */
  QuarryClient admin(String password) throws IOException {
    return builder()
        .adminPassword(LocalCredentials.adminPassword(password, dataDir, localServer()))
        .build();
  }

  /** A client for HEC ingestion. */
  QuarryClient hec(String token) throws IOException {
    return builder().hecToken(LocalCredentials.hecToken(token, dataDir, localServer())).build();
  }

  /** Whether the server's URL names this machine (where the data directory's secrets belong). */
  private boolean localServer() {
    return isLocal(URI.create(LocalCredentials.url(url, dataDir)).getHost());
  }

  private QuarryClient.Builder builder() {
    URI server = URI.create(LocalCredentials.url(url, dataDir));
    QuarryClient.Builder builder = QuarryClient.builder(server);
    SSLContext trust = trust(server);
    return trust == null ? builder : builder.sslContext(trust);
  }

  /** The TLS context for {@code server}, or null for the JDK's default trust. */
  SSLContext trust(URI server) {
    if (!"https".equalsIgnoreCase(server.getScheme())) {
      return null;
    }
    if (insecure) {
      System.err.println(
          "quarry: --insecure: the server's TLS certificate is not checked; anyone on the network"
              + " path can read the credentials");
      return TlsTrust.trustingAnyCertificate();
    }
    Path file = caCertificate;
    if (file == null) {
      String fromEnvironment = System.getenv("QUARRY_CA_CERT");
      if (fromEnvironment != null && !fromEnvironment.isBlank()) {
        file = Path.of(fromEnvironment);
      }
    }
    if (file == null) {
      Path generated = GeneratedCertificate.caFile(LocalCredentials.dataDirectory(dataDir));
      if (isLocal(server.getHost()) && Files.isReadable(generated)) {
        file = generated;
      }
    }
    return file == null ? null : TlsTrust.trusting(file);
  }

  private static boolean isLocal(String host) {
    if (host == null) {
      return false;
    }
    try {
      InetAddress address =
          InetAddress.getByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
      return address.isLoopbackAddress()
          || address.isAnyLocalAddress()
          || java.net.NetworkInterface.getByInetAddress(address) != null;
    } catch (UnknownHostException | java.net.SocketException e) {
      return false;
    }
  }
}
