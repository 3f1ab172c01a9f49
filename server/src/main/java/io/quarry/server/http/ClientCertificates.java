package io.quarry.server.http;

import static java.util.Objects.requireNonNull;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.quarry.server.config.Tls;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * What client certificates mean beyond the TLS handshake ({@code server.tls.clientAuth: optional}
 * checks one that is sent): route groups that need one ({@code
 * server.tls.clientCertificateRequired} — {@code hec}: {@code /services/collector…}; {@code rest}:
 * everything else; the health checks never), answered 403 {@code CLIENT_CERTIFICATE_REQUIRED}
 * before a byte of the body is read; and the users certificates stand for ({@code
 * server.tls.certificateUsers}: a verified certificate's common name → a Quarry user, who is then
 * authenticated without a password when a request sends no {@code Authorization} header).
 *
 * @param requiredGroups route groups a request of which needs a verified client certificate
 * @param users common name → user name
 */
public record ClientCertificates(Set<String> requiredGroups, Map<String, String> users) {
  /** Certificates mean nothing beyond the handshake. */
  public static final ClientCertificates NONE = new ClientCertificates(Set.of(), Map.of());

  /** Paths open to every client whatever is required: load balancers' health checks. */
  private static final Set<String> HEALTH =
      Set.of("/health", "/ready", "/services/collector/health", "/services/collector/health/1.0");

  public ClientCertificates {
    requiredGroups = Set.copyOf(requiredGroups);
    users = Map.copyOf(users);
  }

  /** The settings of {@code server.tls} (none without TLS). */
  public static ClientCertificates of(Tls tls) {
    return tls == null || !tls.enabled()
        ? NONE
        : new ClientCertificates(
            Set.copyOf(tls.clientCertificateRequired()), tls.certificateUsers());
  }

  /** The route group of a path ({@code hec}, {@code rest}), or null for a health check. */
  static String group(String path) {
    if (HEALTH.contains(path)) {
      return null;
    }
    return path.startsWith("/services/collector") ? Tls.GROUP_HEC : Tls.GROUP_REST;
  }

  /** Whether a request to {@code path} over {@code channel} lacks a certificate it needs. */
  boolean refuses(String path, Channel channel) {
    if (requiredGroups.isEmpty()) {
      return false;
    }
    String group = group(path);
    return group != null && requiredGroups.contains(group) && commonName(channel).isEmpty();
  }

  /** The 403 for a request without the certificate its route group needs. */
  static ApiException required(String path) {
    return new ApiException(
        io.netty.handler.codec.http.HttpResponseStatus.FORBIDDEN,
        "CLIENT_CERTIFICATE_REQUIRED",
        "The "
            + group(path)
            + " routes need a client certificate (server.tls.clientCertificateRequired):"
            + " connect with one that a CA of server.tls.clientCa signed");
  }

  /** The user the channel's verified client certificate stands for, if one is configured. */
  Optional<String> user(Channel channel) {
    return users.isEmpty() ? Optional.empty() : commonName(channel).map(users::get);
  }

  /**
   * The common name of the client certificate the channel's TLS session verified, or empty: no TLS,
   * no certificate sent, or one without a common name.
   */
  static Optional<String> commonName(Channel channel) {
    SslHandler tls = channel.pipeline().get(SslHandler.class);
    if (tls == null) {
      return Optional.empty();
    }
    Certificate[] chain;
    try {
      chain = tls.engine().getSession().getPeerCertificates();
    } catch (SSLPeerUnverifiedException none) {
      return Optional.empty();
    }
    if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
      return Optional.empty();
    }
    return commonName(leaf.getSubjectX500Principal().getName());
  }

  /** The last {@code CN} of a distinguished name (RFC 2253), or empty. */
  static Optional<String> commonName(String distinguishedName) {
    try {
      List<Rdn> rdns = new LdapName(requireNonNull(distinguishedName)).getRdns();
      Optional<String> found = Optional.empty();
      for (Rdn rdn : rdns) { // most significant first: the leaf's own CN is the last one
        if (rdn.getType().equalsIgnoreCase("CN")) {
          found = Optional.of(String.valueOf(rdn.getValue()));
        }
      }
      return found;
    } catch (InvalidNameException e) {
      return Optional.empty();
    }
  }
}
