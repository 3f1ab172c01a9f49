package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.auth.Access;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.auth.Grants;
import io.quarry.server.auth.UserDirectory;
import io.quarry.server.config.Auth;
import io.quarry.server.config.Role;
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
 * Splunk's {@code authentication/users}, as {@code service.users} of its SDKs uses it, under {@code
 * /services} and {@code /servicesNS/{owner}/{app}}: {@code GET} lists every user to those with the
 * {@code edit_user} capability (admin) and a user's own entry to them; {@code POST} creates one
 * ({@code name}, {@code password}, {@code roles} — repeated for several; Splunk's SDKs lower-case
 * names), {@code POST …/{name}} changes its password or roles, {@code DELETE …/{name}} removes it —
 * with {@code edit_user}, never {@code admin} or a user of the configuration, and never giving or
 * touching a user more than the caller holds ({@link Grants}). Passwords are kept only as PBKDF2
 * hashes ({@link UserDirectory}). Changes and refusals are audited. Roles: {@link
 * SplunkRoleRoutes}.
 */
public final class SplunkUserRoutes {
  private static final String USERS = "authentication/users";

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
    String name = exchange.parameter("name");
    Access caller = editor(exchange, "user created", name);
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
    put(exchange, caller, name, password, "created");
    show(exchange, name, HttpResponseStatus.CREATED);
  }

  private void update(Exchange exchange) throws IOException {
    String name = exchange.pathParameter("name");
    Access caller = editor(exchange, "user changed", name);
    if (users.list().stream().noneMatch(u -> u.name().equals(name))) {
      throw notFound(name);
    }
    if (!users.configured(name)) {
      grant(
          caller,
          users.rolesOf(name),
          "Changing user '" + name + "' as it is now",
          "user changed",
          name);
    }
    put(exchange, caller, name, exchange.parameter("password"), "changed");
    show(exchange, name, HttpResponseStatus.OK);
  }

  private void put(Exchange exchange, Access caller, String name, String password, String what)
      throws IOException {
    List<String> roles = exchange.parameters("roles");
    // a new user without roles gets the user role, which is handed out too
    List<String> given =
        !roles.isEmpty() || !what.equals("created") ? roles : List.of(Auth.USER_ROLE);
    if (!given.isEmpty() && !users.configured(name)) {
      grant(caller, given, "Giving user '" + name + "' roles " + given, "user " + what, name);
    }
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
            Authenticator.auditEvent(caller.user(), "user " + what, "succeeded")
                .with("user_changed", name)
                .with("roles", String.join(",", roles)));
  }

  private void show(Exchange exchange, String name, HttpResponseStatus status) {
    UserDirectory.Listed user =
        users.list().stream().filter(u -> u.name().equals(name)).findFirst().orElseThrow();
    SplunkEntities.answer(exchange, status, USERS, List.of(entity(user)));
  }

  private void delete(Exchange exchange) throws IOException {
    String name = exchange.pathParameter("name");
    Access caller = editor(exchange, "user deleted", name);
    List<String> held = users.rolesOf(name);
    if (held != null && !users.configured(name)) {
      grant(caller, held, "Deleting user '" + name + "'", "user deleted", name);
    }
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
            Authenticator.auditEvent(caller.user(), "user deleted", "succeeded")
                .with("user_changed", name));
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, USERS, List.of());
  }

  /**
   * The caller, who needs {@code edit_user}; a refusal is audited.
   *
   * @throws ApiException 403 {@code MISSING_CAPABILITY}
   */
  private Access editor(Exchange exchange, String what, String user) {
    Access caller = access(exchange);
    if (!caller.has(Role.EDIT_USER)) {
      denied(caller, what, user, "missing capability edit_user");
      caller.require(Role.EDIT_USER, "Changing users");
    }
    return caller;
  }

  /**
   * Requires what {@code roles} give to be no stronger than the caller's access; a refusal is
   * audited.
   */
  private void grant(Access caller, List<String> roles, String action, String what, String user) {
    try {
      Grants.require(caller, users.access(user, roles), action);
    } catch (ApiException refused) {
      denied(caller, what, user, refused.getMessage());
      throw refused;
    }
  }

  private void denied(Access caller, String what, String user, String reason) {
    authenticator
        .audit()
        .record(
            Authenticator.auditEvent(caller.user(), what, "denied")
                .with("user_changed", user == null ? "" : user)
                .with("reason", reason));
  }

  /** Whether the caller sees every user: {@code edit_user} (admin). */
  private static boolean isAdmin(Access access) {
    return access.has(Role.EDIT_USER);
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
}
