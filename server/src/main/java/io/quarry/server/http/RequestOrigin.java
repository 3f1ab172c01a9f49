package io.quarry.server.http;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Optional;

/**
 * The client address of the request the current worker thread serves, for code that is handed only
 * a header (the authenticator auditing a failed password names where it came from). Set by {@link
 * HttpHandler} around each route call, cleared after it; empty outside a request.
 */
public final class RequestOrigin {
  private static final ThreadLocal<String> CLIENT = new ThreadLocal<>();

  private RequestOrigin() {}

  /** The client's IP address, or empty outside a request. */
  public static Optional<String> clientAddress() {
    return Optional.ofNullable(CLIENT.get());
  }

  static void set(SocketAddress remote) {
    CLIENT.set(
        remote instanceof InetSocketAddress inet && inet.getAddress() != null
            ? inet.getAddress().getHostAddress()
            : remote == null ? null : remote.toString());
  }

  static void clear() {
    CLIENT.remove();
  }
}
