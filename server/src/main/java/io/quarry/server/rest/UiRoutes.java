package io.quarry.server.rest;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The search page: static files from the class path ({@code io/quarry/server/ui/}) under {@code
 * /ui} ({@code index.html}), {@code /ui/<file>} and {@code /ui/vendor/<file>}; a browser asking for
 * {@code /} is sent here by {@link SystemRoutes}. No authentication: the files hold no data, and
 * the page signs in against the API itself ({@code POST /services/auth/login}) before it reads any.
 *
 * <p>A file name is one path segment of letters, digits, {@code . _ -} not starting with a dot and
 * with an extension this class knows a content type for, so no request reaches outside the UI's
 * resource folder (no {@code ..}, no escaped slash, no directory listing); anything else is 404.
 * Files are read once and kept (they are small): an {@code ETag} of their bytes answers {@code
 * If-None-Match} with 304. The page and its own scripts are revalidated on every load ({@code
 * no-cache}), so a new server version is picked up at once; vendored libraries carry their version
 * in their names and are cached for a year.
 */
public final class UiRoutes {
  /** Where the page is served. */
  public static final String PATH = "/ui";

  private static final String RESOURCES = "/io/quarry/server/ui/";
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final Map<String, String> TYPES =
      Map.of(
          "html", "text/html; charset=utf-8",
          "js", "text/javascript; charset=utf-8",
          "css", "text/css; charset=utf-8",
          "svg", "image/svg+xml",
          "png", "image/png",
          "ico", "image/x-icon",
          "json", "application/json",
          "txt", "text/plain; charset=utf-8");

  /**
   * The page's Content-Security-Policy: its own scripts, styles and connections only (inline style
   * attributes are allowed: the chart library positions its elements with them).
   */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'"
          + " data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action"
          + " 'self'; frame-ancestors 'none'";

  /**
   * For working on the page: {@code -Dquarry.ui.dir=server/src/main/resources/io/quarry/server/ui}
   * serves the files from there, read on every request (nothing cached).
   */
  private static final String DEVELOPMENT_DIRECTORY = System.getProperty("quarry.ui.dir");

  private record Asset(byte[] bytes, String contentType, String etag) {}

  private static final Asset MISSING = new Asset(new byte[0], "", "");

  private final Map<String, Asset> cache = new ConcurrentHashMap<>();

  public void register(Router router) {
    router.add(HttpMethod.GET, PATH, exchange -> serve(exchange, "", "index.html"));
    router.add(
        HttpMethod.GET,
        PATH + "/{file}",
        exchange -> serve(exchange, "", exchange.pathParameter("file")));
    router.add(
        HttpMethod.GET,
        PATH + "/vendor/{file}",
        exchange -> serve(exchange, "vendor/", exchange.pathParameter("file")));
  }

  /** Whether a request for {@code /} comes from a browser (it accepts HTML). */
  static boolean wantsPage(Exchange exchange) {
    String accept = exchange.header(HttpHeaderNames.ACCEPT);
    return accept != null && accept.toLowerCase(Locale.ROOT).contains("text/html");
  }

  private static String checked(String name) {
    if (name == null || !NAME.matcher(name).matches() || extension(name).isEmpty()) {
      throw notFound(name);
    }
    return name;
  }

  private static Optional<String> extension(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? Optional.empty() : Optional.ofNullable(TYPES.get(name.substring(dot + 1)));
  }

  /**
   * Serves {@code folder + file}: the folder is one of ours, the file (one decoded path segment,
   * which may hold an escaped slash) is always checked.
   */
  private void serve(Exchange exchange, String folder, String file) {
    String name = folder + checked(file);
    Asset asset =
        DEVELOPMENT_DIRECTORY != null ? load(name) : cache.computeIfAbsent(name, UiRoutes::load);
    if (asset == MISSING) {
      throw notFound(name);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("ETag", asset.etag());
    headers.put(
        "Cache-Control",
        name.startsWith("vendor/") ? "public, max-age=31536000, immutable" : "no-cache");
    headers.put("X-Content-Type-Options", "nosniff");
    if (name.endsWith(".html")) {
      headers.put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
      headers.put("X-Frame-Options", "DENY");
      headers.put("Referrer-Policy", "no-referrer");
    }
    String ifNoneMatch = exchange.header(HttpHeaderNames.IF_NONE_MATCH);
    if (ifNoneMatch != null && ifNoneMatch.contains(asset.etag())) {
      exchange.send(HttpResponseStatus.NOT_MODIFIED, asset.contentType(), new byte[0], headers);
      return;
    }
    exchange.send(HttpResponseStatus.OK, asset.contentType(), asset.bytes(), headers);
  }

  private static Asset load(String name) {
    String type = extension(name).orElse(null);
    if (type == null) {
      return MISSING;
    }
    try (InputStream in = open(name)) {
      if (in == null) {
        return MISSING;
      }
      byte[] bytes = in.readAllBytes();
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
      String etag = "\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"";
      return new Asset(bytes, type, etag);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static InputStream open(String name) throws IOException {
    if (DEVELOPMENT_DIRECTORY != null) {
      java.nio.file.Path file = java.nio.file.Path.of(DEVELOPMENT_DIRECTORY, name);
      return java.nio.file.Files.isRegularFile(file)
          ? java.nio.file.Files.newInputStream(file)
          : null;
    }
    return UiRoutes.class.getResourceAsStream(RESOURCES + name);
  }

  private static ApiException notFound(String name) {
    return new ApiException(
        HttpResponseStatus.NOT_FOUND, "NOT_FOUND", "No such file in the search page: " + name);
  }
}
