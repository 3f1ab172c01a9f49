package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.ql.parser.Macros;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.macros.MacroStore;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Search macros through Splunk's {@code configs/conf-macros} (what {@code service.macros} in its
 * SDKs uses), under {@code /services} and {@code /servicesNS/{owner}/{app}}: the same macros as
 * {@code /api/v1/macros}. Listing and reading are open to every user; {@code POST} (create: {@code
 * name}, {@code definition}, {@code args} comma-separated), {@code POST …/{name}} (change) and
 * {@code DELETE …/{name}} are admin's. A macro's entry name is its key: {@code name} or, with
 * arguments, {@code name(n)} (a {@code name} without {@code (n)} but with {@code args} gets it).
 * {@code iseval=1} macros are refused (400): Quarry expands macros as text only.
 */
public final class SplunkMacroRoutes {
  private static final String PATH = "configs/conf-macros";

  private final Authenticator authenticator;
  private final MacroStore macros;

  public SplunkMacroRoutes(Authenticator authenticator, MacroStore macros) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.macros = requireNonNull(macros, "macros is null");
  }

  public void register(Router router) {
    for (String prefix : SplunkEntities.paths(PATH)) {
      router.add(HttpMethod.GET, prefix, SplunkErrors.splunk(this::list));
      router.add(HttpMethod.POST, prefix, SplunkErrors.splunk(this::create));
      router.add(HttpMethod.GET, prefix + "/{name}", SplunkErrors.splunk(this::show));
      router.add(HttpMethod.POST, prefix + "/{name}", SplunkErrors.splunk(this::update));
      router.add(HttpMethod.DELETE, prefix + "/{name}", SplunkErrors.splunk(this::delete));
    }
  }

  private void list(Exchange exchange) {
    authenticator.requireUser(exchange.header(HttpHeaderNames.AUTHORIZATION), "Macros");
    List<SplunkEntities.Entity> all = new ArrayList<>();
    macros.list().forEach((key, macro) -> all.add(entity(key, macro)));
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, all);
  }

  private void show(Exchange exchange) {
    authenticator.requireUser(exchange.header(HttpHeaderNames.AUTHORIZATION), "Macros");
    String key = key(exchange.pathParameter("name"), List.of());
    SplunkEntities.answer(
        exchange, HttpResponseStatus.OK, PATH, List.of(entity(key, require(key))));
  }

  private void create(Exchange exchange) throws IOException {
    authenticator.requireAdmin(
        exchange.header(HttpHeaderNames.AUTHORIZATION), "Defining macros", "edit_macros");
    String name = exchange.parameter("name");
    if (name == null || name.isBlank()) {
      throw ApiException.badRequest("MISSING_PARAMETER", "The 'name' parameter is required");
    }
    List<String> args = args(exchange.parameter("args"));
    String key = key(name, args);
    if (macros.list().containsKey(key)) {
      throw new ApiException(
          HttpResponseStatus.CONFLICT, "MACRO_EXISTS", "A macro '" + key + "' already exists");
    }
    put(exchange, key, exchange.parameter("definition"), args);
    SplunkEntities.answer(
        exchange, HttpResponseStatus.CREATED, PATH, List.of(entity(key, require(key))));
  }

  private void update(Exchange exchange) throws IOException {
    authenticator.requireAdmin(
        exchange.header(HttpHeaderNames.AUTHORIZATION), "Changing macros", "edit_macros");
    String key = key(exchange.pathParameter("name"), List.of());
    Map<String, Object> old = require(key);
    String given = exchange.parameter("args");
    @SuppressWarnings("unchecked")
    List<String> args = given == null ? (List<String>) old.get("args") : args(given);
    String definition = exchange.parameter("definition");
    put(exchange, key, definition == null ? (String) old.get("definition") : definition, args);
    SplunkEntities.answer(
        exchange, HttpResponseStatus.OK, PATH, List.of(entity(key, require(key))));
  }

  private void delete(Exchange exchange) throws IOException {
    authenticator.requireAdmin(
        exchange.header(HttpHeaderNames.AUTHORIZATION), "Deleting macros", "edit_macros");
    String key = key(exchange.pathParameter("name"), List.of());
    require(key);
    if (!macros.delete(key)) {
      throw new ApiException(
          HttpResponseStatus.FORBIDDEN,
          "CONFIGURED",
          "Macro '" + key + "' is defined in the configuration (search.macros); change it there");
    }
    audit(key, "DELETE", null);
    SplunkEntities.answer(exchange, HttpResponseStatus.OK, PATH, List.of());
  }

  private void put(Exchange exchange, String key, String definition, List<String> args)
      throws IOException {
    String iseval = exchange.parameter("iseval");
    if (iseval != null && List.of("1", "true").contains(iseval.toLowerCase(Locale.ROOT))) {
      throw ApiException.badRequest(
          "UNSUPPORTED_SETTING",
          "iseval=1 is not supported: Quarry expands a macro's definition as search text");
    }
    if (definition == null) {
      throw ApiException.badRequest(
          "MISSING_PARAMETER", "The 'definition' parameter is required (the macro's text)");
    }
    try {
      macros.put(key, new MacroStore.Definition(definition, args));
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("INVALID_MACRO", e.getMessage());
    }
    audit(key, "POST", definition);
  }

  /** Records a macro change in the audit trail (only admin changes macros). */
  private void audit(String key, String operation, String definition) {
    io.quarry.server.audit.AuditEvent event =
        io.quarry.server.auth.Authenticator.auditEvent(
                io.quarry.server.auth.Authenticator.ADMIN_USER, "edit_macros", "succeeded")
            .with("operation", operation)
            .with("object", key);
    authenticator.audit().record(definition == null ? event : event.with("definition", definition));
  }

  private Map<String, Object> require(String key) {
    Map<String, Object> macro = macros.list().get(key);
    if (macro == null) {
      throw new ApiException(
          HttpResponseStatus.NOT_FOUND, "MACRO_NOT_FOUND", "Could not find object id=" + key);
    }
    return macro;
  }

  /** The macro's key: {@code name(n)} for {@code n} arguments unless the name says it already. */
  private static String key(String name, List<String> args) {
    try {
      return Macros.normalizeKey(
          args.isEmpty() || name.strip().endsWith(")") ? name : name + "(" + args.size() + ")");
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("INVALID_MACRO", e.getMessage());
    }
  }

  private static List<String> args(String commaSeparated) {
    if (commaSeparated == null || commaSeparated.isBlank()) {
      return List.of();
    }
    return Arrays.stream(commaSeparated.split(",")).map(String::strip).toList();
  }

  private static SplunkEntities.Entity entity(String key, Map<String, Object> macro) {
    Map<String, Object> content = new LinkedHashMap<>();
    content.put("definition", macro.get("definition"));
    content.put("args", String.join(",", asStrings(macro.get("args"))));
    content.put("iseval", "0");
    content.put("validation", "");
    content.put("errormsg", "");
    content.put("disabled", false);
    return new SplunkEntities.Entity(key, "nobody", Instant.EPOCH, "global", content);
  }

  private static List<String> asStrings(Object list) {
    List<String> strings = new ArrayList<>();
    if (list instanceof List<?> items) {
      items.forEach(item -> strings.add(String.valueOf(item)));
    }
    return strings;
  }
}
