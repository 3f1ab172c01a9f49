package io.quarry.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.client.TlsTrust;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.QuarryConfig;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS on a real server on 127.0.0.1 ({@code server.tls.clientAuth}, {@code
 * server.tls.clientCa}): {@code required} serves a client with a certificate the configured CA
 * signed and refuses the handshake without one or with one another CA signed; {@code optional}
 * serves clients without a certificate but still refuses a wrong one; a client certificate does not
 * replace credentials; bad settings stop the server at start naming the setting.
 */
class MutualTlsTest {
  @TempDir Path directory;
  private QuarryServer server;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  /** A CA and a client certificate it signed (clientAuth extended key usage). */
  private record Client(X509Certificate ca, X509Certificate certificate, KeyPair key) {}

  @Test
  void requiredClientCertificatesGateTheWholePort() throws Exception {
    Client trusted = client("Trusted clients CA", "shipper-1");
    Client rogue = client("Rogue CA", "shipper-1");
    Path clientCa = writeCa(trusted.ca());
    server = start("required", clientCa);
    SSLContext serverTrust = TlsTrust.trusting(serverCa());

    HttpResponse<String> health = get(with(trusted), "/health", null);
    assertThat(health.statusCode()).isEqualTo(200);
    // the certificate is a gate, not a login: searching still needs credentials
    assertThat(get(with(trusted), "/services/server/info", null).statusCode()).isEqualTo(401);
    assertThat(get(with(trusted), "/services/server/info", TestServers.basic("pw")).statusCode())
        .isEqualTo(200);
    HttpResponse<String> hec =
        send(with(trusted), "/services/collector/event", "Splunk tok", "{\"event\":\"mtls\"}");
    assertThat(hec.statusCode()).as(hec.body()).isEqualTo(200);

    HttpClient withoutCertificate = HttpClient.newBuilder().sslContext(serverTrust).build();
    assertThatThrownBy(() -> get(withoutCertificate, "/health", null))
        .isInstanceOf(java.io.IOException.class);
    assertThatThrownBy(() -> get(with(rogue), "/health", null))
        .isInstanceOf(java.io.IOException.class);
    // and the server serves on
    assertThat(get(with(trusted), "/health", null).statusCode()).isEqualTo(200);
  }

  @Test
  void optionalClientCertificatesServeClientsWithoutOneButRefuseAWrongOne() throws Exception {
    Client trusted = client("Trusted clients CA", "agent");
    Client rogue = client("Rogue CA", "agent");
    server = start("optional", writeCa(trusted.ca()));
    HttpClient withoutCertificate =
        HttpClient.newBuilder().sslContext(TlsTrust.trusting(serverCa())).build();
    assertThat(get(withoutCertificate, "/health", null).statusCode()).isEqualTo(200);
    assertThat(get(with(trusted), "/health", null).statusCode()).isEqualTo(200);
    assertThatThrownBy(() -> get(with(rogue), "/health", null))
        .isInstanceOf(java.io.IOException.class);
  }

  @Test
  void badClientAuthSettingsStopTheServerNamingTheSetting() throws Exception {
    assertThatThrownBy(() -> new QuarryConfig.Tls(true, null, null, null, "required", null))
        .hasMessageContaining("server.tls.clientCa");
    assertThatThrownBy(() -> new QuarryConfig.Tls(true, null, null, null, "sometimes", "ca.pem"))
        .hasMessageContaining("server.tls.clientAuth");
    assertThatThrownBy(() -> start("required", directory.resolve("missing.pem")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.tls.clientCa");
    Path notPem = directory.resolve("not.pem");
    Files.writeString(notPem, "not a certificate");
    assertThatThrownBy(() -> start("optional", notPem))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.tls.clientCa");
  }

  private QuarryServer start(String clientAuth, Path clientCa) throws Exception {
    return TestServers.startTls(
        directory.resolve("data"),
        "pw",
        new QuarryConfig.Tls(true, null, null, null, clientAuth, clientCa.toString()));
  }

  private Path serverCa() {
    return directory.resolve("data").resolve(GeneratedCertificate.DIRECTORY).resolve("ca.pem");
  }

  private Path writeCa(X509Certificate ca) throws Exception {
    Path file = directory.resolve("client-ca.pem");
    Files.writeString(file, GeneratedCertificate.pem("CERTIFICATE", ca.getEncoded()));
    return file;
  }

  /**
   * An HTTPS client trusting the server's generated CA and presenting {@code client}'s certificate
   * whatever CAs the server names (the JDK's own key manager would send none the server did not ask
   * for, which would not test the server's check).
   */
  private HttpClient with(Client client) throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry(
        "client",
        client.key().getPrivate(),
        "k".toCharArray(),
        new Certificate[] {client.certificate(), client.ca()});
    KeyManagerFactory keyManagers =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keyManagers.init(keys, "k".toCharArray());
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("server-ca", ServerTls.readCertificates(serverCa(), "test").get(0));
    TrustManagerFactory trustManagers =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trustManagers.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    javax.net.ssl.X509KeyManager keyManager =
        (javax.net.ssl.X509KeyManager) keyManagers.getKeyManagers()[0];
    javax.net.ssl.X509ExtendedKeyManager always =
        new javax.net.ssl.X509ExtendedKeyManager() {
          @Override
          public String chooseClientAlias(
              String[] keyType, java.security.Principal[] issuers, java.net.Socket socket) {
            return "client";
          }

          @Override
          public String chooseEngineClientAlias(
              String[] keyType, java.security.Principal[] issuers, javax.net.ssl.SSLEngine engine) {
            return "client";
          }

          @Override
          public String[] getClientAliases(String keyType, java.security.Principal[] issuers) {
            return new String[] {"client"};
          }

          @Override
          public String[] getServerAliases(String keyType, java.security.Principal[] issuers) {
            return null;
          }

          @Override
          public String chooseServerAlias(
              String keyType, java.security.Principal[] issuers, java.net.Socket socket) {
            return null;
          }

          @Override
          public X509Certificate[] getCertificateChain(String alias) {
            return keyManager.getCertificateChain(alias);
          }

          @Override
          public java.security.PrivateKey getPrivateKey(String alias) {
            return keyManager.getPrivateKey(alias);
          }
        };
    context.init(new javax.net.ssl.KeyManager[] {always}, trustManagers.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(context).build();
  }

  private static Client client(String caName, String clientName) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair caKey = generator.generateKeyPair();
    KeyPair clientKey = generator.generateKeyPair();
    Date from = Date.from(Instant.now().minus(Duration.ofHours(1)));
    Date to = Date.from(Instant.now().plus(Duration.ofDays(1)));
    X500Name issuer = new X500Name("CN=" + caName);
    X509v3CertificateBuilder ca =
        new JcaX509v3CertificateBuilder(
            issuer, BigInteger.valueOf(System.nanoTime()), from, to, issuer, caKey.getPublic());
    ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
    ca.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign));
    X509Certificate caCertificate = sign(ca, caKey);
    X509v3CertificateBuilder leaf =
        new JcaX509v3CertificateBuilder(
            caCertificate,
            BigInteger.valueOf(System.nanoTime() + 1),
            from,
            to,
            new X500Name("CN=" + clientName),
            clientKey.getPublic());
    leaf.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
    leaf.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    leaf.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
    return new Client(caCertificate, sign(leaf, caKey), clientKey);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws Exception {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
  }

  private HttpResponse<String> get(HttpClient client, String path, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path)).timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> send(
      HttpClient client, String path, String authorization, String body) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", authorization)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
