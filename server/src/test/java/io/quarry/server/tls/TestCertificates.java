package io.quarry.server.tls;

import java.math.BigInteger;
import java.net.http.HttpClient;
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

/**
 * Client certificates for mutual-TLS tests: a CA, certificates it signs, HTTPS clients with them.
 */
final class TestCertificates {
  private TestCertificates() {}

  /** A CA: its certificate and key. */
  record Ca(X509Certificate certificate, KeyPair key) {}

  /** A CA and a client certificate it signed (clientAuth extended key usage). */
  record Client(X509Certificate ca, X509Certificate certificate, KeyPair key) {}

  /** A new CA named {@code CN=name}. */
  static Ca ca(String name) throws Exception {
    KeyPair caKey = keyPair();
    X500Name issuer = new X500Name("CN=" + name);
    X509v3CertificateBuilder ca =
        new JcaX509v3CertificateBuilder(
            issuer, BigInteger.valueOf(System.nanoTime()), from(), to(), issuer, caKey.getPublic());
    ca.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
    ca.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign));
    return new Ca(sign(ca, caKey), caKey);
  }

  /** A client certificate {@code CN=commonName} (with {@code O=Example}) that {@code ca} signed. */
  static Client client(Ca ca, String commonName) throws Exception {
    KeyPair clientKey = keyPair();
    X509v3CertificateBuilder leaf =
        new JcaX509v3CertificateBuilder(
            ca.certificate(),
            BigInteger.valueOf(System.nanoTime() + 1),
            from(),
            to(),
            new X500Name("CN=" + commonName + ",O=Example"),
            clientKey.getPublic());
    leaf.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
    leaf.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
    leaf.addExtension(
        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
    return new Client(ca.certificate(), sign(leaf, ca.key()), clientKey);
  }

  /**
   * An HTTPS client trusting the server's CA ({@code serverCa}, a PEM file) and presenting {@code
   * client}'s certificate whatever CAs the server names (the JDK's own key manager would send none
   * the server did not ask for, which would not test the server's check).
   */
  static HttpClient httpClient(Client client, Path serverCa) throws Exception {
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
    trust.setCertificateEntry("server-ca", ServerTls.readCertificates(serverCa, "test").get(0));
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

  private static KeyPair keyPair() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static Date from() {
    return Date.from(Instant.now().minus(Duration.ofHours(1)));
  }

  private static Date to() {
    return Date.from(Instant.now().plus(Duration.ofDays(1)));
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws Exception {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
  }
}
