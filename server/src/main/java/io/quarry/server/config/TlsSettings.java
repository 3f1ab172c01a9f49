package io.quarry.server.config;

import static io.quarry.server.config.Tls.CLIENT_AUTH_NONE;
import static io.quarry.server.config.Tls.CLIENT_AUTH_OPTIONAL;
import static io.quarry.server.config.Tls.CLIENT_AUTH_REQUIRED;
import static io.quarry.server.config.Tls.CLIENT_AUTH_WANT;
import static io.quarry.server.config.Tls.GROUP_HEC;
import static io.quarry.server.config.Tls.GROUP_REST;

import java.util.List;
import java.util.Map;

/**
 * The checks of the {@code server.tls} section ({@link Tls}): certificate and key together, and
 * client certificates asked for only where a CA can check them.
 */
final class TlsSettings {
  private TlsSettings() {}

  /** A blank setting as none. */
  static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  /**
   * {@code clientAuth} in lower case, {@code none} when unset, {@code want} as {@code optional}.
   */
  static String clientAuth(String clientAuth) {
    String name =
        clientAuth == null || clientAuth.isBlank()
            ? CLIENT_AUTH_NONE
            : clientAuth.strip().toLowerCase(java.util.Locale.ROOT);
    return name.equals(CLIENT_AUTH_WANT) ? CLIENT_AUTH_OPTIONAL : name;
  }

  /** Checks the TLS settings once their defaults are in; the message names the setting. */
  static void check(
      boolean enabled,
      String certificate,
      String key,
      String clientAuth,
      String clientCa,
      List<String> clientCertificateRequired,
      Map<String, String> certificateUsers) {
    for (String group : clientCertificateRequired) {
      if (!List.of(GROUP_HEC, GROUP_REST).contains(group)) {
        throw new IllegalArgumentException(
            "server.tls.clientCertificateRequired: route groups are hec and rest, not '"
                + group
                + "'");
      }
    }
    certificateUsers.forEach(
        (commonName, user) -> {
          if (commonName.isBlank() || user == null || !user.matches("[A-Za-z0-9_.@-]{1,64}")) {
            throw new IllegalArgumentException(
                "server.tls.certificateUsers: a certificate's common name maps to a user name,"
                    + " not '"
                    + commonName
                    + "' to '"
                    + user
                    + "'");
          }
        });
    if (!List.of(CLIENT_AUTH_NONE, CLIENT_AUTH_OPTIONAL, CLIENT_AUTH_REQUIRED)
        .contains(clientAuth)) {
      throw new IllegalArgumentException(
          "server.tls.clientAuth: none, optional (or want) or required, not '" + clientAuth + "'");
    }
    if ((clientAuth.equals(CLIENT_AUTH_NONE) || !enabled)
        && (!clientCertificateRequired.isEmpty() || !certificateUsers.isEmpty())) {
      throw new IllegalArgumentException(
          "server.tls.clientCertificateRequired and server.tls.certificateUsers need client"
              + " certificates: set server.tls.enabled, server.tls.clientAuth to optional (or"
              + " required) and server.tls.clientCa");
    }
    if (!clientAuth.equals(CLIENT_AUTH_NONE) && clientCa == null) {
      throw new IllegalArgumentException(
          "server.tls.clientAuth is "
              + clientAuth
              + ": server.tls.clientCa must name the PEM file of the CAs that sign client"
              + " certificates");
    }
    if ((certificate == null) != (key == null)) {
      throw new IllegalArgumentException(
          "server.tls: certificate and key go together; "
              + (certificate == null
                  ? "key is set without certificate"
                  : "certificate is set without key"));
    }
  }
}
