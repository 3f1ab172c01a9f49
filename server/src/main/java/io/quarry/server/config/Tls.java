package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * TLS on the HTTP port: a PEM certificate chain and its PEM private key (PKCS#8, or PKCS#1 RSA),
 * TLS 1.2 and 1.3 only. Enabled without a certificate, the server generates a self-signed one into
 * the data directory on first start.
 */
public record Tls(
    @JsonProperty("enabled") Boolean enabled,
    @JsonProperty("certificate") String certificate,
    @JsonProperty("key") String key,
    @JsonProperty("keyPassword") String keyPassword,
    @JsonProperty("clientAuth") String clientAuth,
    @JsonProperty("clientCa") String clientCa,
    @JsonProperty("clientCertificateRequired") List<String> clientCertificateRequired,
    @JsonProperty("certificateUsers") Map<String, String> certificateUsers) {
  /** No client certificate asked for. */
  public static final String CLIENT_AUTH_NONE = "none";

  /** A client certificate asked for and, when one is sent, checked against {@code clientCa}. */
  public static final String CLIENT_AUTH_OPTIONAL = "optional";

  /** No connection without a client certificate signed by a CA of {@code clientCa}. */
  public static final String CLIENT_AUTH_REQUIRED = "required";

  /** {@code want}: Netty's and Elasticsearch's name for {@link #CLIENT_AUTH_OPTIONAL}. */
  public static final String CLIENT_AUTH_WANT = "want";

  /** The route group of HEC ({@code /services/collector…} but its health check). */
  public static final String GROUP_HEC = "hec";

  /** The route group of everything else but {@code /health}: search, Splunk's REST, the UI. */
  public static final String GROUP_REST = "rest";

  public Tls {
    enabled = Objects.requireNonNullElse(enabled, false);
    certificate = TlsSettings.blankToNull(certificate);
    key = TlsSettings.blankToNull(key);
    keyPassword = TlsSettings.blankToNull(keyPassword);
    clientAuth = TlsSettings.clientAuth(clientAuth);
    clientCa = TlsSettings.blankToNull(clientCa);
    clientCertificateRequired =
        clientCertificateRequired == null ? List.of() : List.copyOf(clientCertificateRequired);
    certificateUsers = certificateUsers == null ? Map.of() : Map.copyOf(certificateUsers);
    TlsSettings.check(
        enabled,
        certificate,
        key,
        clientAuth,
        clientCa,
        clientCertificateRequired,
        certificateUsers);
  }

  /** Whether the server makes its own certificate (TLS on, none configured). */
  public boolean generatesCertificate() {
    return enabled && certificate == null;
  }
}
