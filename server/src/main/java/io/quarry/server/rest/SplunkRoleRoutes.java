package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.auth.Access;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.auth.Grants;
import io.quarry.server.auth.RoleDirectory;
import io.quarry.server.auth.UserDirectory;
import io.quarry.server.config.Role;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splunk's {@code authorization/roles}, as {@code service.roles} of its SDKs uses it, under {@code
 * /services} and {@code /servicesNS/{owner}/{app}}: {@code GET} lists the roles (built in,
 * configured, defined here) with their indexes, capabilities, imported roles, filter and quotas, to
 * every user; {@code POST} creates one ({@code name} and Splunk's fields: {@code
 * srchIndexesAllowed}, {@code srchIndexesDefault}, {@code capabilities} and {@code imported_roles}
 * — repeated for several, an empty value for none — {@code srchFilter}, {@code srchJobsQuota},
 * {@code srchMaxTime}); {@code POST …/{name}} changes the fields it is given; {@code DELETE
 * …/{name}} removes one no user holds and no role imports. Changes need the {@code edit_roles}
 * capability, may not hand out more than the caller holds ({@link Grants}), never touch a built-in
 * or configured role (403 {@code CONFIGURED}), and are audited ({@code role created}, {@code role
 * changed}, {@code role deleted}; refusals {@code info=denied}).
 */
public final class SplunkRoleRoutes {
  private static final String ROLES = "authorization/roles";
  private static final String CAPABILITIES = "authorization/capabilities";

  private final Authenticator authenticator;
  private final UserDirectory users;

  public SplunkRoleRoutes(Authenticator authenticator, UserDirectory users) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.users = requireNonNull(users, "users is null");
  }

  public void register(Router router) {
    for (String roles : SplunkEntities.paths(ROLES)) {
      router.add(HttpMethod.GET, roles, SplunkErrors.splunk(this::list));
      router.add(HttpMethod.POST, roles, SplunkErrors.splunk(this::create));
      router.add(HttpMethod.GET, roles + "/{name}", SplunkErrors.splunk(this::show));
      router.add(HttpMethod.POST, roles + "/{name}", SplunkErrors.splunk(this::update));
      router.add(HttpMethod.DELETE, roles + "/{name}", SplunkErrors.splunk(this::delete));
    }
    for (String capabilities : SplunkEntities.paths(CAPABILITIES)) {
      router.add(HttpMethod.GET, capabilities, SplunkErrors.splunk(this::capabilities));
    }
  }

  /**
   * Splunk's {@code authorization/capabilities}: one entry listing every capability a role may have
   * (what its SDKs' {@code Role.grant} checks names against).
   */
  private void capabilities(Exchange exchange) {
    access(exchange);
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("capabilities", new java.util.TreeSet<>(Role.CAPABILITIES).stream().toList());
    SplunkEntities.answer(
        exchange,
        HttpResponseStatus.OK,
        CAPABILITIES,
        List.of(
            new SplunkEntities.Entity("capabilities", "nobody", Instant.EPOCH, "system", content)));
  }

  private Access access(Exchange exchange) {
    return authenticator.requireAccess(exchange.header(HttpHeaderNames.AUTHORIZATION), "Roles");
  }

  private void list(Exchange exchange) {
    access(exchange);
    List<SplunkEntities.Entity> all = new ArrayList<>();
    users.roles().forEach((name, role) -> all.add(entity(name, role)));
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, ROLES, all);
  }

  private void show(Exchange exchange) {
    access(exchange);
    String name = exchange.pathParameter("name");
    Role role = users.roles().get(name);
    if (role == null) {
      throw notFound(name);
    }
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, ROLES, List.of(entity(name, role)));
  }

  private void create(Exchange exchange) throws IOException {
    Access caller = editor(exchange, "role created", exchange.parameter("name"));
    String name = exchange.parameter("name");
    if (name == null || name.isBlank()) {
      throw ApiException.badRequest(
          "MISSING_PARAMETER", "Creating a role needs 'name' (and Splunk's role fields)");
    }
    if (users.roles().containsKey(name)) {
      throw new ApiException(
          HttpResponseStatus.CONFLICT, "ROLE_EXISTS", "A role named '" + name + "' already exists");
    }
    put(exchange, caller, name, null, "role created");
    answer(exchange, name, HttpResponseStatus.CREATED);
  }

  private void update(Exchange exchange) throws IOException {
    String name = exchange.pathParameter("name");
    Access caller = editor(exchange, "role changed", name);
    if (!users.roles().containsKey(name)) {
      throw notFound(name);
    }
    if (users.configuredRole(name)) {
      throw configured(caller, name, "role changed");
    }
    RoleDirectory.Stored old = stored(name);
    grant(
        caller,
        users.accessOfRole(name, old),
        "Changing role '" + name + "' as it is now",
        "role changed",
        name);
    put(exchange, caller, name, old, "role changed");
    answer(exchange, name, HttpResponseStatus.OK);
  }

  private void delete(Exchange exchange) throws IOException {
    String name = exchange.pathParameter("name");
    Access caller = editor(exchange, "role deleted", name);
    if (users.configuredRole(name)) {
      throw configured(caller, name, "role deleted");
    }
    if (!users.roles().containsKey(name)) {
      throw notFound(name);
    }
    grant(
        caller,
        users.accessOfRole(name, stored(name)),
        "Deleting role '" + name + "'",
        "role deleted",
        name);
    try {
      users.deleteRole(name);
    } catch (IllegalStateException inUse) {
      throw new ApiException(HttpResponseStatus.CONFLICT, "ROLE_IN_USE", inUse.getMessage());
    }
    audit(caller, "role deleted", "succeeded", name);
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, ROLES, List.of());
  }

  /** The role as stored here (a role defined over REST: no configured one reaches this). */
  private RoleDirectory.Stored stored(String name) {
    Role role = users.roles().get(name);
    return new RoleDirectory.Stored(
        role.srchIndexesAllowed(),
        role.srchIndexesDefault(),
        role.capabilities(),
        role.srchFilter(),
        role.srchJobsQuota(),
        role.srchMaxTime(),
        users.imports(name));
  }

  /**
   * Defines {@code name} from the request's fields over {@code old} (null: a new role, Splunk's
   * defaults), after checking the caller hands out nothing they lack.
   */
  private void put(
      Exchange exchange, Access caller, String name, RoleDirectory.Stored old, String what)
      throws IOException {
    RoleDirectory.Stored role =
        new RoleDirectory.Stored(
            list(exchange, "srchIndexesAllowed", old == null ? null : old.srchIndexesAllowed()),
            list(exchange, "srchIndexesDefault", old == null ? null : old.srchIndexesDefault()),
            list(exchange, "capabilities", old == null ? null : old.capabilities()),
            text(exchange, "srchFilter", old == null ? null : old.srchFilter()),
            quota(exchange, old == null ? null : old.srchJobsQuota()),
            text(exchange, "srchMaxTime", old == null ? null : old.srchMaxTime()),
            list(exchange, "imported_roles", old == null ? null : old.importedRoles()));
    try {
      // checked first, so a malformed setting is a 400 rather than judged as a grant
      role.role().check(name);
    } catch (IllegalArgumentException e) {
      throw invalid(e);
    }
    for (String imported : role.importedRoles()) {
      if (!users.roles().containsKey(imported)) {
        throw ApiException.badRequest(
            "INVALID_ROLE",
            "imported_roles: no role '" + imported + "' (built in, configured or defined)");
      }
    }
    grant(caller, users.accessOfRole(name, role), "Defining role '" + name + "'", what, name);
    try {
      users.putRole(name, role, old == null);
    } catch (IllegalArgumentException e) {
      throw invalid(e);
    } catch (IllegalStateException raced) { // another request created or deleted it meanwhile
      throw old == null
          ? new ApiException(HttpResponseStatus.CONFLICT, "ROLE_EXISTS", raced.getMessage())
          : notFound(name);
    }
    authenticator
        .audit()
        .record(
            Authenticator.auditEvent(caller.user(), what, "succeeded")
                .with("role", name)
                .with("capabilities", String.join(",", role.role().capabilities()))
                .with("srchIndexesAllowed", String.join(",", role.role().srchIndexesAllowed()))
                .with("imported_roles", String.join(",", role.importedRoles())));
  }

  /**
   * Requires {@code granted} to be no stronger than the caller's access; a refusal is audited.
   *
   * @throws ApiException 403 {@code PRIVILEGE_ESCALATION}
   */
  private void grant(Access caller, Access granted, String action, String what, String role) {
    try {
      Grants.require(caller, granted, action);
    } catch (ApiException refused) {
      denied(caller, what, role, refused.getMessage());
      throw refused;
    }
  }

  private static ApiException invalid(IllegalArgumentException e) {
    return ApiException.badRequest("INVALID_ROLE", e.getMessage());
  }

  /**
   * Every value of a repeated field; {@code old} when the request has none, an empty list for one
   * empty value (Splunk's way to clear a list).
   */
  private static List<String> list(Exchange exchange, String field, List<String> old) {
    List<String> values = exchange.parameters(field);
    if (values.isEmpty()) {
      return old;
    }
    List<String> given = new ArrayList<>();
    for (String value : values) {
      for (String part : value.split(",")) { // Splunk also takes a comma-separated list
        if (!part.isBlank()) {
          given.add(part.strip());
        }
      }
    }
    return given;
  }

  private static String text(Exchange exchange, String field, String old) {
    String value = exchange.parameter(field);
    return value == null ? old : value;
  }

  private static Integer quota(Exchange exchange, Integer old) {
    String value = exchange.parameter("srchJobsQuota");
    if (value == null || value.isBlank()) {
      return old;
    }
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw ApiException.badRequest(
          "INVALID_ROLE", "srchJobsQuota: a whole number (0: no limit), not '" + value + "'");
    }
  }

  /**
   * The caller, who needs {@code edit_roles}; a refusal is audited.
   *
   * @throws ApiException 403 {@code MISSING_CAPABILITY}
   */
  private Access editor(Exchange exchange, String what, String role) {
    Access caller = access(exchange);
    if (!caller.has(Role.EDIT_ROLES)) {
      denied(caller, what, role == null ? "" : role, "missing capability edit_roles");
      caller.require(Role.EDIT_ROLES, "Changing roles");
    }
    return caller;
  }

  private ApiException configured(Access caller, String name, String what) {
    denied(caller, what, name, "built in or configured");
    return new ApiException(
        HttpResponseStatus.FORBIDDEN,
        "CONFIGURED",
        "role '"
            + name
            + "' is built in or defined in the configuration (auth.roles); change it there");
  }

  private void audit(Access caller, String what, String info, String role) {
    authenticator
        .audit()
        .record(Authenticator.auditEvent(caller.user(), what, info).with("role", role));
  }

  /** Records a refused change with its reason. */
  private void denied(Access caller, String what, String role, String reason) {
    authenticator
        .audit()
        .record(
            Authenticator.auditEvent(caller.user(), what, "denied")
                .with("role", role)
                .with("reason", reason));
  }

  private void answer(Exchange exchange, String name, HttpResponseStatus status) {
    SplunkEntities.answer(exchange, status, ROLES, List.of(entity(name, users.roles().get(name))));
  }

  private SplunkEntities.Entity entity(String name, Role role) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("capabilities", role.capabilities());
    content.put("imported_roles", users.imports(name));
    content.put("srchIndexesAllowed", role.srchIndexesAllowed());
    content.put("srchIndexesDefault", role.srchIndexesDefault());
    content.put("srchFilter", role.srchFilter() == null ? "" : role.srchFilter());
    content.put("srchJobsQuota", role.srchJobsQuota());
    content.put("srchMaxTime", role.srchMaxTime() == null ? "" : role.srchMaxTime());
    content.put("type", users.configuredRole(name) ? "Quarry configuration" : "Quarry");
    return new SplunkEntities.Entity(name, "nobody", Instant.EPOCH, "system", content);
  }

  private static ApiException notFound(String name) {
    return new ApiException(
        HttpResponseStatus.NOT_FOUND, "ROLE_NOT_FOUND", "Could not find object id=" + name);
  }
}
