package io.quarry.server.http;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Optional;

/**
 * The client address of the request the current worker thread serves, and the user its verified
 * client certificate stands for ({@link ClientCertificates}), for code that is handed only a header
 * (the authenticator auditing a failed password names where it came from; it authenticates a
 * request without an Authorization header as the certificate's user). Set by {@link HttpHandler}
 * around each route call, cleared after it; empty outside a request.
 */
public final class RequestOrigin {
  private static final ThreadLocal<String> CLIENT = new ThreadLocal<>();
  private static final ThreadLocal<String> CERTIFICATE_USER = new ThreadLocal<>();

  private RequestOrigin() {}

  /** The client's IP address, or empty outside a request. */
  public static Optional<String> clientAddress() {
    return Optional.ofNullable(CLIENT.get());
  }

  /** The user the request's verified client certificate stands for, or empty. */
  public static Optional<String> certificateUser() {
    return Optional.ofNullable(CERTIFICATE_USER.get());
  }

  static void set(SocketAddress remote, String certificateUser) {
    CERTIFICATE_USER.set(certificateUser);
    CLIENT.set(
        remote instanceof InetSocketAddress inet && inet.getAddress() != null
            ? inet.getAddress().getHostAddress()
            : remote == null ? null : remote.toString());
  }

  static void clear() {
    CLIENT.remove();
    CERTIFICATE_USER.remove();
  }
}
