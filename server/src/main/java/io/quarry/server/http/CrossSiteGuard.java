package io.quarry.server.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.ssl.SslHandler;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;

/**
 * Refuses a state-changing request a page of another site made a browser send (cross-site request
 * forgery): a browser attaches the Basic credentials it cached for this server to a cross-site form
 * POST, which needs no CORS preflight. A POST, PUT, PATCH or DELETE whose {@code Origin} is not the
 * server's own origin (the scheme the request reached it by and its {@code Host} header, or a
 * reverse proxy's {@code X-Forwarded-Proto} and {@code X-Forwarded-Host}), or that says {@code
 * Sec-Fetch-Site: cross-site}, is answered 403 before it is routed. A request without these headers
 * (curl, SDKs, HEC shippers) is not a browser's and passes.
 */
final class CrossSiteGuard {
  private CrossSiteGuard() {}

  /**
   * Throws a 403 naming the origin when {@code exchange} is a cross-site state-changing request.
   */
  static void check(Exchange exchange) {
    if (!changesState(exchange.method())) {
      return;
    }
    String origin = exchange.header("Origin");
    String fetchSite = exchange.header("Sec-Fetch-Site");
    if (origin != null && !ownOrigin(exchange, origin)) {
      throw refused("origin " + origin);
    }
    if (origin == null && "cross-site".equalsIgnoreCase(fetchSite)) {
      throw refused("a cross-site page (Sec-Fetch-Site: cross-site)");
    }
  }

  /**
   * Whether {@code origin} is the server's as the request reached it: the connection's scheme and
   * the {@code Host} header, or what a reverse proxy in front says it was ({@code
   * X-Forwarded-Proto}, {@code X-Forwarded-Host}: a page cannot make a browser send these
   * cross-site without a CORS preflight, which the server never grants).
   */
  private static boolean ownOrigin(Exchange exchange, String origin) {
    String scheme = exchange.channel().pipeline().get(SslHandler.class) != null ? "https" : "http";
    String host = exchange.header("Host");
    String forwardedScheme = first(exchange.header("X-Forwarded-Proto"));
    String forwardedHost = first(exchange.header("X-Forwarded-Host"));
    return sameOrigin(origin, host, scheme)
        || forwardedScheme != null && sameOrigin(origin, host, forwardedScheme)
        || forwardedHost != null
            && sameOrigin(
                origin, forwardedHost, forwardedScheme != null ? forwardedScheme : scheme);
  }

  /** The first of a proxy header's comma-separated values (the client-side proxy's), or null. */
  private static String first(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    int comma = value.indexOf(',');
    return (comma < 0 ? value : value.substring(0, comma)).trim();
  }

  private static boolean changesState(HttpMethod method) {
    return method.equals(HttpMethod.POST)
        || method.equals(HttpMethod.PUT)
        || method.equals(HttpMethod.PATCH)
        || method.equals(HttpMethod.DELETE);
  }

  /**
   * Whether {@code origin} is {@code scheme://host[:port]} of this server as {@code host} names.
   */
  static boolean sameOrigin(String origin, String host, String scheme) {
    if (host == null || host.isBlank()) {
      return false;
    }
    scheme = scheme.trim().toLowerCase(Locale.ROOT);
    int defaultPort = scheme.equals("https") ? 443 : 80;
    URI parsed;
    URI own;
    try {
      parsed = new URI(origin.trim());
      own = new URI(scheme + "://" + host.trim());
    } catch (URISyntaxException e) {
      return false; // "null" (a sandboxed page, a file) and garbage are nobody's origin
    }
    if (parsed.getHost() == null || own.getHost() == null || parsed.getScheme() == null) {
      return false;
    }
    return parsed.getScheme().toLowerCase(Locale.ROOT).equals(scheme)
        && parsed.getHost().equalsIgnoreCase(own.getHost())
        && port(parsed, defaultPort) == port(own, defaultPort);
  }

  private static int port(URI uri, int defaultPort) {
    return uri.getPort() < 0 ? defaultPort : uri.getPort();
  }

  private static ApiException refused(String who) {
    return ApiException.of(
        403,
        "CROSS_SITE_REQUEST",
        "Refused a state-changing request from " + who + ": not this server's origin",
        Map.of(),
        Map.of());
  }
}
