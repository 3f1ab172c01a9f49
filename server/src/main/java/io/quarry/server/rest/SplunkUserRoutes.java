package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.auth.Access;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.auth.UserDirectory;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Splunk's users and roles, as {@code service.users} and {@code service.roles} of its SDKs use
 * them, under {@code /services} and {@code /servicesNS/{owner}/{app}}:
 *
 * <ul>
 *   <li>{@code authentication/users}: {@code GET} lists every user to admin and a user's own entry
 *       to them; {@code POST} creates one ({@code name}, {@code password}, {@code roles} — repeated
 *       for several; Splunk's SDKs lower-case names), {@code POST …/{name}} changes its password or
 *       roles, {@code DELETE …/{name}} removes it — admin only, never {@code admin} or a user of
 *       the configuration. Passwords are kept only as PBKDF2 hashes ({@link UserDirectory});
 *   <li>{@code authorization/roles}: {@code GET} the roles (built in and configured) with their
 *       indexes, capabilities, search filter and quotas. Roles are defined in the configuration.
 * </ul>
 */
public final class SplunkUserRoutes {
  private static final String USERS = "authentication/users";
  private static final String ROLES = "authorization/roles";

  private final Authenticator authenticator;
  private final UserDirectory users;

  public SplunkUserRoutes(Authenticator authenticator, UserDirectory users) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.users = requireNonNull(users, "users is null");
  }

  public void register(Router router) {
    for (String users : SplunkEntities.paths(USERS)) {
      router.add(HttpMethod.GET, users, SplunkErrors.splunk(this::list));
      router.add(HttpMethod.POST, users, SplunkErrors.splunk(this::create));
      router.add(HttpMethod.GET, users + "/{name}", SplunkErrors.splunk(this::show));
      router.add(HttpMethod.POST, users + "/{name}", SplunkErrors.splunk(this::update));
      router.add(HttpMethod.DELETE, users + "/{name}", SplunkErrors.splunk(this::delete));
    }
    for (String roles : SplunkEntities.paths(ROLES)) {
      router.add(HttpMethod.GET, roles, SplunkErrors.splunk(this::roles));
      router.add(HttpMethod.GET, roles + "/{name}", SplunkErrors.splunk(this::role));
    }
  }

  private Access access(Exchange exchange) {
    return authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Users");
  }

  private void list(Exchange exchange) {
    Access caller = access(exchange);
    List<SplunkEntities.Entity> visible = new ArrayList<>();
    for (UserDirectory.Listed user : users.list()) {
      if (isAdmin(caller) || user.name().equals(caller.user())) {
        visible.add(entity(user));
      }
    }
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, USERS, visible);
  }

  private void show(Exchange exchange) {
    Access caller = access(exchange);
    String name = exchange.pathParameter("name");
    UserDirectory.Listed user =
        users.list().stream()
            .filter(u -> u.name().equals(name))
            .filter(u -> isAdmin(caller) || u.name().equals(caller.user()))
            .findFirst()
            .orElseThrow(() -> notFound(name));
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, USERS, List.of(entity(user)));
  }

  private void create(Exchange exchange) throws IOException {
    requireAdmin(exchange, "Creating users");
    String name = exchange.parameter("name");
    String password = exchange.parameter("password");
    if (name == null || password == null) {
      throw ApiException.badRequest(
          "MISSING_PARAMETER",
          "Creating a user needs 'name' and 'password' (and optional 'roles')");
    }
    if (users.list().stream().anyMatch(u -> u.name().equals(name))) {
      throw new ApiException(
          HttpResponseStatus.CONFLICT, "USER_EXISTS", "A user named '" + name + "' already exists");
    }
    put(exchange, name, password, "created");
    show(exchange, name, HttpResponseStatus.CREATED);
  }

  private void update(Exchange exchange) throws IOException {
    requireAdmin(exchange, "Changing users");
    String name = exchange.pathParameter("name");
    if (users.list().stream().noneMatch(u -> u.name().equals(name))) {
      throw notFound(name);
    }
    put(exchange, name, exchange.parameter("password"), "changed");
    show(exchange, name, HttpResponseStatus.OK);
  }

  private void put(Exchange exchange, String name, String password, String what)
      throws IOException {
    List<String> roles = exchange.parameters("roles");
    try {
      users.put(name, password, roles.isEmpty() ? null : roles);
    } catch (IllegalArgumentException e) {
      throw new ApiException(
          users.configured(name) ? HttpResponseStatus.FORBIDDEN : HttpResponseStatus.BAD_REQUEST,
          users.configured(name) ? "CONFIGURED" : "INVALID_USER",
          e.getMessage());
    }
    authenticator
        .audit()
        .record(
            Authenticator.auditEvent(access(exchange).user(), "user " + what, "succeeded")
                .with("user_changed", name)
                .with("roles", String.join(",", roles)));
  }

  private void show(Exchange exchange, String name, HttpResponseStatus status) {
    UserDirectory.Listed user =
        users.list().stream().filter(u -> u.name().equals(name)).findFirst().orElseThrow();
    SplunkEntities.answer(exchange, status, USERS, List.of(entity(user)));
  }

  private void delete(Exchange exchange) throws IOException {
    requireAdmin(exchange, "Deleting users");
    String name = exchange.pathParameter("name");
    try {
      if (!users.delete(name)) {
        throw notFound(name);
      }
    } catch (IllegalArgumentException e) {
      throw new ApiException(HttpResponseStatus.FORBIDDEN, "CONFIGURED", e.getMessage());
    }
    authenticator
        .audit()
        .record(
            Authenticator.auditEvent(access(exchange).user(), "user deleted", "succeeded")
                .with("user_changed", name));
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, USERS, List.of());
  }

  private void roles(Exchange exchange) {
    access(exchange);
    List<SplunkEntities.Entity> all = new ArrayList<>();
    users.roles().forEach((name, role) -> all.add(roleEntity(name, role)));
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, ROLES, all);
  }

  private void role(Exchange exchange) {
    access(exchange);
    String name = exchange.pathParameter("name");
    QuarryConfig.Role role = users.roles().get(name);
    if (role == null) {
      throw new ApiException(
          HttpResponseStatus.NOT_FOUND, "ROLE_NOT_FOUND", "Could not find object id=" + name);
    }
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, ROLES, List.of(roleEntity(name, role)));
  }

  private void requireAdmin(Exchange exchange, String action) {
    if (!isAdmin(access(exchange))) {
      throw new ApiException(
          HttpResponseStatus.FORBIDDEN, "ADMIN_ONLY", action + " is for admin only");
    }
  }

  private static boolean isAdmin(Access access) {
    return access.user().equals(Authenticator.ADMIN_USER);
  }

  private static ApiException notFound(String name) {
    return new ApiException(
        HttpResponseStatus.NOT_FOUND,
        "USER_NOT_FOUND",
        "Could not find object id=" + name.toLowerCase(Locale.ROOT));
  }

  private static SplunkEntities.Entity entity(UserDirectory.Listed user) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("roles", user.roles());
    content.put("realname", "");
    content.put("email", "");
    content.put("type", user.from().equals("config") ? "Quarry configuration" : "Quarry");
    content.put("defaultApp", "search");
    return new SplunkEntities.Entity(user.name(), "nobody", Instant.EPOCH, "system", content);
  }

  private static SplunkEntities.Entity roleEntity(String name, QuarryConfig.Role role) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("capabilities", role.capabilities());
    content.put("imported_roles", List.of());
    content.put("srchIndexesAllowed", role.srchIndexesAllowed());
    content.put("srchIndexesDefault", role.srchIndexesDefault());
    content.put("srchFilter", role.srchFilter() == null ? "" : role.srchFilter());
    content.put("srchJobsQuota", role.srchJobsQuota());
    content.put("srchMaxTime", role.srchMaxTime() == null ? "" : role.srchMaxTime());
    return new SplunkEntities.Entity(name, "nobody", Instant.EPOCH, "system", content);
  }
}
