package io.quarry.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.client.HecSender;
import io.quarry.client.QuarryClient;
import io.quarry.client.QuarryClientException;
import io.quarry.client.SearchResults;
import io.quarry.client.TlsTrust;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.Tls;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the HTTP port of a real server on 127.0.0.1: the generated certificate, a configured one
 * (EC with a PKCS#8 key, RSA with a PKCS#1 key), plain HTTP on the TLS port, the protocols offered,
 * the Java client and HEC sender over HTTPS.
 */
class TlsTest {
  @TempDir Path directory;
  private QuarryServer server;

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static Tls generated() {
    return new Tls(true, null, null, null, null, null, null, null);
  }

  @Test
  void aGeneratedCertificateServesHealthHecAndSearchOverHttps() throws Exception {
    Path data = directory.resolve("data");
    server = TestServers.startTls(data, "pw", generated());
    assertThat(server.url()).startsWith("https://127.0.0.1:");
    Path tls = data.resolve("tls");
    assertThat(tls.resolve("ca.pem")).exists();
    assertThat(tls.resolve("certificate.pem")).exists();
    assertThat(Files.getPosixFilePermissions(tls.resolve("key.pem")))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(server.tls().generated().generated()).isTrue();
    assertThat(server.tls().fingerprint()).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");

    HttpClient https =
        HttpClient.newBuilder().sslContext(TlsTrust.trusting(tls.resolve("ca.pem"))).build();
    assertThat(get(https, "/health").statusCode()).isEqualTo(200);
    HttpResponse<String> sent =
        https.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event"))
                .header("Authorization", "Splunk " + TestServers.TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString("{\"event\":\"over tls\"}"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
    assertThat(export(https, "\"over tls\" | stats count").body()).contains("\"count\":\"1\"");

    // a restart keeps the certificate: clients that trust its CA go on trusting it
    String fingerprint = server.tls().fingerprint();
    server.close();
    server = TestServers.startTls(data, "pw", generated());
    assertThat(server.tls().generated().generated()).isFalse();
    assertThat(server.tls().fingerprint()).isEqualTo(fingerprint);
    assertThat(get(https, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void theCertificateIsCheckedByDefault() throws Exception {
    server = TestServers.startTls(directory.resolve("data"), "pw", generated());
    assertThatThrownBy(() -> get(HttpClient.newHttpClient(), "/health"))
        .isInstanceOf(SSLHandshakeException.class);
    HttpClient insecure =
        HttpClient.newBuilder().sslContext(TlsTrust.trustingAnyCertificate()).build();
    assertThat(get(insecure, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void plainHttpToTheTlsPortGetsA400AndTheServerKeepsServing() throws Exception {
    server = TestServers.startTls(directory.resolve("data"), "pw", generated());
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(
          "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8); // then closed
      assertThat(answer).startsWith("HTTP/1.1 400 ").contains("TLS_REQUIRED").contains("https://");
    }
    // the JDK client says what went wrong too
    HttpClient plain = HttpClient.newHttpClient();
    HttpResponse<String> refused =
        plain.send(
            HttpRequest.newBuilder(
                    URI.create(server.url().replace("https://", "http://") + "/health"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(400);
    HttpClient https =
        HttpClient.newBuilder()
            .sslContext(TlsTrust.trusting(server.tls().generated().ca()))
            .build();
    assertThat(get(https, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void onlyTls12And13AreOffered() throws Exception {
    server = TestServers.startTls(directory.resolve("data"), "pw", generated());
    SSLEngine engine = server.tls().context().newEngine(io.netty.buffer.ByteBufAllocator.DEFAULT);
    assertThat(engine.getEnabledProtocols()).containsExactlyInAnyOrder("TLSv1.3", "TLSv1.2");
    // TLS 1.1 is not testable end to end here: the JDK client refuses to offer it itself
    // (jdk.tls.disabledAlgorithms). Each of the two protocols offered alone is served.
    for (String protocol : List.of("TLSv1.2", "TLSv1.3")) {
      SSLParameters parameters = new SSLParameters();
      parameters.setProtocols(new String[] {protocol});
      HttpClient client =
          HttpClient.newBuilder()
              .sslContext(TlsTrust.trusting(server.tls().generated().ca()))
              .sslParameters(parameters)
              .build();
      assertThat(get(client, "/health").statusCode()).as(protocol).isEqualTo(200);
    }
  }

  @Test
  void aConfiguredEcCertificateWithAPkcs8Key() throws Exception {
    GeneratedCertificate.Made made =
        GeneratedCertificate.make(new java.util.LinkedHashSet<>(List.of("127.0.0.1")));
    Path certificate = directory.resolve("server.pem");
    Path key = directory.resolve("server.key");
    Files.writeString(
        certificate,
        GeneratedCertificate.pem("CERTIFICATE", made.server().getEncoded())
            + GeneratedCertificate.pem("CERTIFICATE", made.ca().getEncoded()));
    Files.writeString(
        key, GeneratedCertificate.pem("PRIVATE KEY", made.serverKey().getPrivate().getEncoded()));
    Path ca = directory.resolve("ca.pem");
    Files.writeString(ca, GeneratedCertificate.pem("CERTIFICATE", made.ca().getEncoded()));

    server =
        TestServers.startTls(
            directory.resolve("data"),
            "pw",
            new Tls(true, certificate.toString(), key.toString(), null, null, null, null, null));
    assertThat(server.tls().generated()).isNull();
    assertThat(directory.resolve("data/tls")).doesNotExist();
    assertThat(server.tls().fingerprint()).isEqualTo(ServerTls.fingerprint(made.server()));
    HttpClient https = HttpClient.newBuilder().sslContext(TlsTrust.trusting(ca)).build();
    assertThat(get(https, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void anEncryptedPkcs8KeyWithItsPassword() throws Exception {
    GeneratedCertificate.Made made =
        GeneratedCertificate.make(new java.util.LinkedHashSet<>(List.of("127.0.0.1")));
    Path certificate = directory.resolve("server.pem");
    Files.writeString(
        certificate,
        GeneratedCertificate.pem("CERTIFICATE", made.server().getEncoded())
            + GeneratedCertificate.pem("CERTIFICATE", made.ca().getEncoded()));
    Path key = directory.resolve("server.key");
    java.io.StringWriter text = new java.io.StringWriter();
    try (org.bouncycastle.openssl.jcajce.JcaPEMWriter writer =
        new org.bouncycastle.openssl.jcajce.JcaPEMWriter(text)) {
      writer.writeObject(
          new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(
              made.serverKey().getPrivate(),
              new org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder(
                      org.bouncycastle.openssl.PKCS8Generator.AES_256_CBC)
                  .setProvider(new org.bouncycastle.jce.provider.BouncyCastleProvider())
                  .setPassword("secret".toCharArray())
                  .build()));
    }
    Files.writeString(key, text.toString());
    assertThat(text.toString()).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----");

    assertThatThrownBy(
            () ->
                TestServers.startTls(
                    directory.resolve("wrong"),
                    "pw",
                    new Tls(
                        true,
                        certificate.toString(),
                        key.toString(),
                        "wrong",
                        null,
                        null,
                        null,
                        null)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.tls.key");
    server =
        TestServers.startTls(
            directory.resolve("data"),
            "pw",
            new Tls(
                true, certificate.toString(), key.toString(), "secret", null, null, null, null));
    Path ca = directory.resolve("ca.pem");
    Files.writeString(ca, GeneratedCertificate.pem("CERTIFICATE", made.ca().getEncoded()));
    HttpClient https = HttpClient.newBuilder().sslContext(TlsTrust.trusting(ca)).build();
    assertThat(get(https, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void aConfiguredRsaCertificateWithAPkcs1Key() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    KeyPair pair = generator.generateKeyPair();
    X500Name name = new X500Name("CN=127.0.0.1");
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            name,
            BigInteger.TEN,
            Date.from(Instant.now().minus(Duration.ofHours(1))),
            Date.from(Instant.now().plus(Duration.ofDays(1))),
            name,
            pair.getPublic());
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
    X509Certificate self =
        new JcaX509CertificateConverter()
            .getCertificate(
                builder.build(
                    new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate())));
    Path certificate = directory.resolve("rsa.pem");
    Path key = directory.resolve("rsa.key");
    Files.writeString(certificate, GeneratedCertificate.pem("CERTIFICATE", self.getEncoded()));
    byte[] pkcs1 =
        PrivateKeyInfo.getInstance(pair.getPrivate().getEncoded())
            .parsePrivateKey()
            .toASN1Primitive()
            .getEncoded();
    Files.writeString(key, GeneratedCertificate.pem("RSA PRIVATE KEY", pkcs1));

    server =
        TestServers.startTls(
            directory.resolve("data"),
            "pw",
            new Tls(true, certificate.toString(), key.toString(), null, null, null, null, null));
    HttpClient https = HttpClient.newBuilder().sslContext(TlsTrust.trusting(certificate)).build();
    assertThat(get(https, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void unusableFilesAreNamedBySetting() throws Exception {
    Path missing = directory.resolve("missing.pem");
    assertThatThrownBy(
            () ->
                TestServers.startTls(
                    directory.resolve("data"),
                    "pw",
                    new Tls(
                        true,
                        missing.toString(),
                        missing.toString(),
                        null,
                        null,
                        null,
                        null,
                        null)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.tls.certificate")
        .hasMessageContaining("does not exist");
    Path garbage = directory.resolve("garbage.pem");
    Files.writeString(garbage, "not a certificate\n");
    assertThatThrownBy(
            () ->
                TestServers.startTls(
                    directory.resolve("data"),
                    "pw",
                    new Tls(
                        true,
                        garbage.toString(),
                        garbage.toString(),
                        null,
                        null,
                        null,
                        null,
                        null)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server.tls.certificate");
  }

  @Test
  void theJavaClientAndHecSenderOverHttps() throws Exception {
    server = TestServers.startTls(directory.resolve("data"), "pw", generated());
    SSLContext trust = TlsTrust.trusting(server.tls().generated().ca());
    QuarryClient client =
        QuarryClient.builder(URI.create(server.url()))
            .adminPassword("pw")
            .hecToken(TestServers.TOKEN)
            .sslContext(trust)
            .build();
    client.sendEvents(List.of(Map.of("event", "from the client", "sourcetype", "tls")));
    try (HecSender sender =
        HecSender.builder(URI.create(server.url()), TestServers.TOKEN)
            .sourcetype("tls")
            .sslContext(trust)
            .build()) {
      sender.send("from the sender");
      sender.flush();
    }
    SearchResults results = client.search("sourcetype=tls | stats count");
    assertThat(results.rows()).containsExactly(Map.of("count", "2"));

    QuarryClient untrusting =
        QuarryClient.builder(URI.create(server.url())).adminPassword("pw").retries(1).build();
    assertThatThrownBy(() -> untrusting.search("| stats count"))
        .isInstanceOf(QuarryClientException.class);
  }

  private HttpResponse<String> get(HttpClient client, String path) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> export(HttpClient client, String query) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/services/search/jobs/export"))
            .header("Authorization", TestServers.basic("pw"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    "output_mode=json&search=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
