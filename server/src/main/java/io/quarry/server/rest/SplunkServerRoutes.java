package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.Version;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Splunk endpoints a client touches before searching: {@code POST /services/auth/login} (form
 * {@code username}, {@code password}) answering a session key, and {@code GET
 * /services/server/info}. Both answer Splunk's XML unless {@code output_mode=json}.
 *
 * <p>{@code server/info} reports Splunk version {@value #SPLUNK_API_VERSION}: Splunk's SDKs choose
 * the v2 search endpoints from 9.0.2 on, and Quarry serves both. Quarry's own version is in {@code
 * quarry_version}.
 */
public final class SplunkServerRoutes {
  /** The Splunk REST API version Quarry answers like. */
  static final String SPLUNK_API_VERSION = "9.2.0";

  private final Authenticator authenticator;
  private final String serverName;

  public SplunkServerRoutes(Authenticator authenticator, String serverName) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.serverName = requireNonNull(serverName, "serverName is null");
  }

  public void register(Router router) {
    for (String prefix : List.of("/services", "/servicesNS/{owner}/{app}")) {
      router.add(HttpMethod.POST, prefix + "/auth/login", SplunkErrors.splunk(this::login));
      router.add(HttpMethod.GET, prefix + "/server/info", SplunkErrors.splunk(this::info));
      router.add(
          HttpMethod.DELETE,
          prefix + "/authentication/httpauth-tokens/{key}",
          SplunkErrors.splunk(this::logout));
    }
  }

  private void login(Exchange exchange) {
    boolean xml = SplunkJobRoutes.xml(exchange);
    Optional<String> key =
        authenticator.login(exchange.parameter("username"), exchange.parameter("password"));
    if (key.isEmpty()) {
      if (xml) {
        exchange.text(
            HttpResponseStatus.UNAUTHORIZED,
            SplunkAtom.CONTENT_TYPE,
            SplunkAtom.messages("WARN", "Login failed"));
        return;
      }
      throw ApiException.unauthorized("Login failed: wrong user name or password");
    }
    if (xml) {
      exchange.text(
          HttpResponseStatus.OK,
          SplunkAtom.CONTENT_TYPE,
          SplunkAtom.response(Map.of("sessionKey", key.get())));
    } else {
      exchange.json(HttpResponseStatus.OK, Map.of("sessionKey", key.get()));
    }
  }

  /**
   * {@code DELETE /services/authentication/httpauth-tokens/{key}}: ends a session (a logout), as
   * Splunk does. 404 for a key that is not a live session of the caller (nor, for a user with
   * {@code admin_all_objects}, of anyone).
   */
  private void logout(Exchange exchange) {
    io.quarry.server.auth.Access access =
        authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Logout");
    if (!authenticator.logout(access, exchange.pathParameter("key"))) {
      throw new ApiException(
          HttpResponseStatus.NOT_FOUND, "SESSION_NOT_FOUND", "No such session of this user");
    }
    if (SplunkJobRoutes.xml(exchange)) {
      exchange.text(
          HttpResponseStatus.OK,
          SplunkAtom.CONTENT_TYPE,
          SplunkAtom.messages("INFO", "Logged out"));
    } else {
      exchange.json(
          HttpResponseStatus.OK,
          Map.of("messages", List.of(Map.of("type", "INFO", "text", "Logged out"))));
    }
  }

  private void info(Exchange exchange) {
    authenticator.requireUser(exchange.header(HttpHeaderNames.AUTHORIZATION), "Server info");
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("version", SPLUNK_API_VERSION);
    content.put("build", "quarry");
    content.put("product_type", "enterprise");
    content.put("instance_type", "quarry"); // Splunk says "cloud" for its cloud; the SDK reads it
    content.put("serverName", serverName);
    content.put("server_roles", List.of("indexer", "search_head"));
    content.put("os_name", System.getProperty("os.name"));
    content.put("cpu_arch", System.getProperty("os.arch"));
    content.put("numberOfCores", Runtime.getRuntime().availableProcessors());
    content.put("quarry_version", Version.current());
    if (SplunkJobRoutes.xml(exchange)) {
      exchange.text(
          HttpResponseStatus.OK,
          SplunkAtom.CONTENT_TYPE,
          SplunkAtom.feed(
              "server-info",
              "/services/server/info",
              List.of(
                  new SplunkAtom.Entry(
                      "server-info",
                      "/services/server/info/server-info",
                      Instant.now().toString(),
                      "system",
                      content))));
      return;
    }
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("name", "server-info");
    entry.put("content", content);
    exchange.json(HttpResponseStatus.OK, Map.of("entry", List.of(entry)));
  }
}
