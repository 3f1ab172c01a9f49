package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.macros.MacroStore;
import java.io.IOException;
import java.util.Map;

/**
 * Search macros: {@code GET /api/v1/macros} (every macro, configured or defined here, any user),
 * {@code PUT /api/v1/macros/{name}} with {@code {"definition": "…", "args": ["a", …]}} (admin; the
 * name is {@code name} or {@code name(n)} for n arguments, as Splunk's stanzas), {@code DELETE} one
 * (admin). A search started afterwards expands the new definitions.
 */
public final class MacroRoutes {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Authenticator authenticator;
  private final MacroStore macros;

  public MacroRoutes(Authenticator authenticator, MacroStore macros) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.macros = requireNonNull(macros, "macros is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.GET, "/api/v1/macros", this::list);
    router.add(HttpMethod.PUT, "/api/v1/macros/{name}", this::put);
    router.add(HttpMethod.DELETE, "/api/v1/macros/{name}", this::delete);
  }

  private void list(Exchange exchange) {
    authenticator.requireUser(exchange.header(HttpHeaderNames.AUTHORIZATION), "Macros");
    exchange.json(HttpResponseStatus.OK, Map.of("macros", macros.list()));
  }

  private void put(Exchange exchange) throws IOException {
    authenticator.requireAdmin(
        exchange.header(HttpHeaderNames.AUTHORIZATION), "Defining macros", "edit_macros");
    String name = exchange.pathParameter("name");
    MacroStore.Definition definition;
    try {
      definition = JSON.readValue(exchange.bodyAsString(), MacroStore.Definition.class);
    } catch (JsonProcessingException | NullPointerException e) {
      throw ApiException.badRequest(
          "INVALID_MACRO",
          "macro '"
              + name
              + "': the body is {\"definition\": \"…\", \"args\": [\"a\", …]} ("
              + e.getMessage()
              + ")");
    }
    String key;
    try {
      key = io.quarry.ql.parser.Macros.normalizeKey(name);
      macros.put(key, definition);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("INVALID_MACRO", e.getMessage());
    }
    audit(key, "PUT", definition.definition());
    exchange.json(HttpResponseStatus.OK, Map.of("name", key, "macro", macros.list().get(key)));
  }

  private void delete(Exchange exchange) throws IOException {
    authenticator.requireAdmin(
        exchange.header(HttpHeaderNames.AUTHORIZATION), "Deleting macros", "edit_macros");
    String name = exchange.pathParameter("name");
    if (!macros.delete(name)) {
      throw new ApiException(
          HttpResponseStatus.NOT_FOUND,
          "MACRO_NOT_FOUND",
          "no macro '"
              + name
              + "' defined through this API (configured ones change in the config)");
    }
    audit(name, "DELETE", null);
    exchange.json(HttpResponseStatus.OK, Map.of("deleted", name));
  }

  /** Records a macro change in the audit trail (only admin changes macros). */
  private void audit(String name, String operation, String definition) {
    io.quarry.server.audit.AuditEvent event =
        io.quarry.server.auth.Authenticator.auditEvent(
                io.quarry.server.auth.Authenticator.ADMIN_USER, "edit_macros", "succeeded")
            .with("operation", operation)
            .with("object", name);
    authenticator.audit().record(definition == null ? event : event.with("definition", definition));
  }
}
