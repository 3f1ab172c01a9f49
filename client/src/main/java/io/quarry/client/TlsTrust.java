package io.quarry.client;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS contexts for {@code https://} servers whose certificate the JDK's default trust store does
 * not know: a private CA, or the self-signed one a Quarry server generates ({@code
 * <dataDir>/tls/ca.pem}).
 *
 * <pre>{@code
 * QuarryClient client = QuarryClient.builder(URI.create("https://quarry.internal:8088"))
 *     .sslContext(TlsTrust.trusting(Path.of("ca.pem"))).adminPassword(password).build();
 * }</pre>
 */
public final class TlsTrust {
  private TlsTrust() {}

  /**
   * A context that trusts exactly the certificates in a PEM file (a CA, or the server's own
   * certificate), and checks the server's host name against its certificate as usual.
   */
  public static SSLContext trusting(Path pemFile) {
    requireNonNull(pemFile, "pemFile is null");
    try (InputStream in = Files.newInputStream(pemFile)) {
      Collection<? extends Certificate> certificates =
          CertificateFactory.getInstance("X.509").generateCertificates(in);
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException(pemFile + " holds no PEM certificate");
      }
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (Certificate certificate : certificates) {
        store.setCertificateEntry("trusted-" + i++, certificate);
      }
      TrustManagerFactory trust =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the certificates in " + pemFile, e);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          pemFile + " is not a PEM certificate file: " + e.getMessage(), e);
    }
  }

  /**
   * <b>Insecure</b>: a context that accepts any certificate for any host name, so anyone between
   * client and server can read and change the traffic, passwords and tokens included. For tests and
   * first experiments only; trust the server's CA with {@link #trusting} instead.
   */
  public static SSLContext trustingAnyCertificate() {
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, new TrustManager[] {new AnyCertificate()}, null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Checks nothing. An {@link X509ExtendedTrustManager}, so the JDK does not add its own host name
   * check around it either.
   */
  private static final class AnyCertificate extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
