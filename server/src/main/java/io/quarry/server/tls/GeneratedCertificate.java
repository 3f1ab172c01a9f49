package io.quarry.server.tls;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The server's own certificate when TLS is on and none is configured, as Elasticsearch makes one on
 * first start: a self-signed certificate authority ({@code ca.pem}, what clients trust) and a
 * server certificate it signed ({@code certificate.pem}: the server certificate then the CA) with
 * its private key ({@code key.pem}, PKCS#8, readable by its owner only), in {@code <dataDir>/tls/}.
 * The CA's private key is never written: nothing else can be signed with it.
 *
 * <p>Keys are EC P-256, signatures SHA-256 with ECDSA; the server certificate names {@code
 * localhost}, this host's name and every address of this machine's interfaces, and is valid for
 * {@value #VALID_DAYS} days. The extensions are the ones strict verifiers (OpenSSL's {@code
 * X509_STRICT}, the default of Python 3.13) demand: key identifiers, critical basic constraints on
 * the CA, key usage, server-auth extended key usage.
 */
public final class GeneratedCertificate {
  /** The directory, relative to the data directory. */
  public static final String DIRECTORY = "tls";

  public static final String CA_FILE = "ca.pem";
  public static final String CERTIFICATE_FILE = "certificate.pem";
  public static final String KEY_FILE = "key.pem";

  static final int VALID_DAYS = 3 * 365;
  private static final SecureRandom RANDOM = new SecureRandom();

  private GeneratedCertificate() {}

  /** The files of a generated certificate, and whether this call made them. */
  public record CertificateFiles(Path ca, Path certificate, Path key, boolean generated) {
    public CertificateFiles {
      requireNonNull(ca, "ca is null");
      requireNonNull(certificate, "certificate is null");
      requireNonNull(key, "key is null");
    }
  }

  /** The CA a generated certificate is signed by, for clients of a server in {@code dataDir}. */
  public static Path caFile(Path dataDirectory) {
    return dataDirectory.resolve(DIRECTORY).resolve(CA_FILE);
  }

  /**
   * The certificate in {@code <dataDirectory>/tls/}, made now (for {@code extraNames} too, e.g. the
   * bind address) unless the files are there.
   */
  public static CertificateFiles loadOrCreate(Path dataDirectory, List<String> extraNames)
      throws IOException {
    Path directory = dataDirectory.resolve(DIRECTORY);
    Path ca = directory.resolve(CA_FILE);
    Path certificate = directory.resolve(CERTIFICATE_FILE);
    Path key = directory.resolve(KEY_FILE);
    if (Files.exists(ca) && Files.exists(certificate) && Files.exists(key)) {
      return new CertificateFiles(ca, certificate, key, false);
    }
    Files.createDirectories(directory);
    try {
      Made made = make(names(extraNames));
      // the key first and owner-only from creation; each file appears whole (written aside, moved)
      write(key, pem("PRIVATE KEY", made.serverKey().getPrivate().getEncoded()), true);
      write(
          certificate,
          pem("CERTIFICATE", made.server().getEncoded())
              + pem("CERTIFICATE", made.ca().getEncoded()),
          false);
      write(ca, pem("CERTIFICATE", made.ca().getEncoded()), false);
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IOException("cannot generate a TLS certificate: " + e.getMessage(), e);
    }
    return new CertificateFiles(ca, certificate, key, true);
  }

  /** The certificate authority, the server certificate it signed, and the server's key pair. */
  record Made(X509Certificate ca, X509Certificate server, KeyPair serverKey) {}

  /** Makes a CA and a server certificate for {@code names} (host names or IP addresses). */
  static Made make(Set<String> names) throws GeneralSecurityException, OperatorCreationException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    KeyPair caKey = generator.generateKeyPair();
    KeyPair serverKey = generator.generateKeyPair();
    Instant now = Instant.now();
    Date notBefore = Date.from(now.minus(Duration.ofHours(1))); // clocks a little behind
    Date notAfter = Date.from(now.plus(Duration.ofDays(VALID_DAYS)));
    String host = localHostName();
    X500Name caName = new X500Name("CN=Quarry self-signed CA for " + rdnSafe(host));
    X500Name serverName = new X500Name("CN=" + rdnSafe(host));
    JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
    try {
      X509v3CertificateBuilder caBuilder =
          new JcaX509v3CertificateBuilder(
              caName, serial(), notBefore, notAfter, caName, caKey.getPublic());
      caBuilder.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
      caBuilder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      caBuilder.addExtension(
          Extension.subjectKeyIdentifier,
          false,
          extensions.createSubjectKeyIdentifier(caKey.getPublic()));
      caBuilder.addExtension(
          Extension.authorityKeyIdentifier,
          false,
          extensions.createAuthorityKeyIdentifier(caKey.getPublic()));
      X509Certificate ca = sign(caBuilder, caKey);

      X509v3CertificateBuilder serverBuilder =
          new JcaX509v3CertificateBuilder(
              ca, serial(), notBefore, notAfter, serverName, serverKey.getPublic());
      serverBuilder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      serverBuilder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      serverBuilder.addExtension(
          Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      serverBuilder.addExtension(
          Extension.subjectKeyIdentifier,
          false,
          extensions.createSubjectKeyIdentifier(serverKey.getPublic()));
      serverBuilder.addExtension(
          Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(ca));
      List<GeneralName> alternatives = new ArrayList<>();
      for (String name : names) {
        alternatives.add(
            isAddress(name)
                ? new GeneralName(GeneralName.iPAddress, name)
                : new GeneralName(GeneralName.dNSName, name));
      }
      serverBuilder.addExtension(
          Extension.subjectAlternativeName,
          false,
          new GeneralNames(alternatives.toArray(GeneralName[]::new)));
      return new Made(ca, sign(serverBuilder, caKey), serverKey);
    } catch (CertIOException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, KeyPair signer)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(
                new JcaContentSignerBuilder("SHA256withECDSA").build(signer.getPrivate())));
  }

  /** localhost, loopback, this host's name and the addresses of this machine's interfaces. */
  static Set<String> names(List<String> extraNames) {
    Set<String> names = new LinkedHashSet<>(List.of("localhost", "127.0.0.1", "::1"));
    String host = localHostName();
    if (!host.equals("localhost")) {
      names.add(host);
    }
    try {
      for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress address : Collections.list(network.getInetAddresses())) {
          String text = address.getHostAddress();
          int zone = text.indexOf('%');
          names.add(zone < 0 ? text : text.substring(0, zone));
        }
      }
    } catch (SocketException e) {
      // the names above still serve local clients
    }
    for (String name : extraNames) {
      if (!name.isBlank() && !isWildcard(name)) {
        names.add(name);
      }
    }
    return names;
  }

  private static boolean isWildcard(String address) {
    return address.equals("0.0.0.0") || address.equals("::") || address.equals("0:0:0:0:0:0:0:0");
  }

  private static boolean isAddress(String name) {
    return name.contains(":") || name.matches("\\d{1,3}(\\.\\d{1,3}){3}");
  }

  private static String localHostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  private static String rdnSafe(String value) {
    return value.replaceAll("[^A-Za-z0-9.\\- ]", "_");
  }

  private static BigInteger serial() {
    return new BigInteger(127, RANDOM).add(BigInteger.ONE);
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static void write(Path file, String text, boolean ownerOnly) throws IOException {
    Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
    Files.deleteIfExists(temporary);
    Set<FileAttribute<?>> attributes =
        file.getFileSystem().supportedFileAttributeViews().contains("posix")
            ? Set.of(
                PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString(ownerOnly ? "rw-------" : "rw-r--r--")))
            : Set.of();
    try (SeekableByteChannel channel =
        Files.newByteChannel(
            temporary,
            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            attributes.toArray(FileAttribute<?>[]::new))) {
      java.nio.ByteBuffer bytes =
          java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.US_ASCII));
      while (bytes.hasRemaining()) {
        channel.write(bytes);
      }
    }
    try {
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
