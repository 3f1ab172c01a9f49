package io.quarry.server.tls;

import static java.util.Objects.requireNonNull;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.Server;
import io.quarry.server.config.Tls;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * TLS for the HTTP port as {@code server.tls} says: the configured PEM certificate chain and key,
 * or the {@link GeneratedCertificate} of the data directory; TLS 1.3 and 1.2 only, through the
 * JDK's TLS implementation. With {@code server.tls.clientAuth} {@code optional} or {@code required}
 * the server asks for a client certificate and checks it against the CAs of {@code
 * server.tls.clientCa} (mutual TLS): {@code required} refuses the handshake without one, both
 * refuse one those CAs did not sign. A client certificate is a gate in front of the port, not a
 * login: requests still authenticate with a password, session key or HEC token.
 *
 * @param context what the pipeline's {@code SslHandler}s are made from
 * @param certificate the PEM chain the server presents
 * @param generated the generated files when the certificate is the server's own, else null
 * @param fingerprint SHA-256 of what a client should trust (the generated CA, else the server
 *     certificate), colon-separated hex as {@code openssl x509 -fingerprint -sha256} prints it
 */
public record ServerTls(
    SslContext context,
    Path certificate,
    GeneratedCertificate.CertificateFiles generated,
    String fingerprint) {
  /** The protocols offered, newest first; TLS 1.1 and older are refused. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

  public ServerTls {
    requireNonNull(context, "context is null");
    requireNonNull(certificate, "certificate is null");
    requireNonNull(fingerprint, "fingerprint is null");
  }

  /**
   * The TLS of a server with these settings, or null when {@code server.tls.enabled} is false.
   * Generates the certificate on first start when none is configured.
   *
   * @throws ConfigException naming the setting whose file cannot be used
   */
  public static ServerTls configure(Server server, Path dataDirectory) throws IOException {
    Tls settings = server.tls();
    if (!settings.enabled()) {
      return null;
    }
    GeneratedCertificate.CertificateFiles generated = null;
    Path certificate;
    Path key;
    if (settings.generatesCertificate()) {
      generated = GeneratedCertificate.loadOrCreate(dataDirectory, List.of(server.bind()));
      certificate = generated.certificate();
      key = generated.key();
    } else {
      certificate = Path.of(settings.certificate());
      key = Path.of(settings.key());
      requireReadable(certificate, "server.tls.certificate");
      requireReadable(key, "server.tls.key");
    }
    List<Certificate> chain = readCertificates(certificate, "server.tls.certificate");
    SslContextBuilder builder;
    try {
      builder =
          SslContextBuilder.forServer(certificate.toFile(), key.toFile(), settings.keyPassword())
              .sslProvider(SslProvider.JDK)
              .protocols(PROTOCOLS);
    } catch (RuntimeException e) {
      throw keyProblem(certificate, key, e);
    }
    if (!settings.clientAuth().equals(Tls.CLIENT_AUTH_NONE)) {
      Path clientCa = Path.of(settings.clientCa());
      requireReadable(clientCa, "server.tls.clientCa");
      List<Certificate> authorities = readCertificates(clientCa, "server.tls.clientCa");
      builder
          .trustManager(
              authorities.stream()
                  .map(java.security.cert.X509Certificate.class::cast)
                  .toArray(java.security.cert.X509Certificate[]::new))
          .clientAuth(
              settings.clientAuth().equals(Tls.CLIENT_AUTH_REQUIRED)
                  ? io.netty.handler.ssl.ClientAuth.REQUIRE
                  : io.netty.handler.ssl.ClientAuth.OPTIONAL);
    }
    SslContext context;
    try {
      context = builder.build();
    } catch (IOException | RuntimeException e) {
      throw keyProblem(certificate, key, e);
    }
    Certificate trusted =
        generated != null ? readCertificates(generated.ca(), "server.tls").get(0) : chain.get(0);
    return new ServerTls(context, certificate, generated, fingerprint(trusted));
  }

  private static ConfigException keyProblem(Path certificate, Path key, Exception e) {
    return new ConfigException(
        "server.tls.key: cannot use "
            + key
            + " with the certificate "
            + certificate
            + " (a PEM private key, PKCS#8 or PKCS#1 RSA, matching the first certificate;"
            + " server.tls.keyPassword if it is encrypted): "
            + rootMessage(e),
        e);
  }

  /** Reads every certificate of a PEM file. */
  public static List<Certificate> readCertificates(Path file, String setting) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      List<Certificate> certificates =
          new ArrayList<>(CertificateFactory.getInstance("X.509").generateCertificates(in));
      if (certificates.isEmpty()) {
        throw new ConfigException(setting + ": " + file + " holds no PEM certificate");
      }
      return certificates;
    } catch (GeneralSecurityException e) {
      throw new ConfigException(
          setting + ": " + file + " is not a PEM certificate chain: " + e.getMessage(), e);
    }
  }

  /** SHA-256 of a certificate's encoding, {@code AB:CD:…}. */
  public static String fingerprint(Certificate certificate) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
      return HexFormat.ofDelimiter(":").withUpperCase().formatHex(digest);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void requireReadable(Path file, String setting) {
    if (!Files.isReadable(file)) {
      throw new ConfigException(
          setting + ": " + file + (Files.exists(file) ? " cannot be read" : " does not exist"));
    }
  }

  private static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
