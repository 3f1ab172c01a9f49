package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.ql.exec.LookupTable;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.ApiException;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.lookups.LookupStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lookup tables: {@code GET /api/v1/lookups} (names and row counts), {@code PUT
 * /api/v1/lookups/{name}} with a CSV body (header row first; replaces), {@code GET} one back as
 * CSV, {@code DELETE} one. The {@code lookup} command reads them.
 */
public final class LookupRoutes {
  private final Authenticator authenticator;
  private final LookupStore lookups;

  public LookupRoutes(Authenticator authenticator, LookupStore lookups) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.lookups = requireNonNull(lookups, "lookups is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.GET, "/api/v1/lookups", this::list);
    router.add(HttpMethod.PUT, "/api/v1/lookups/{name}", this::put);
    router.add(HttpMethod.GET, "/api/v1/lookups/{name}", this::get);
    router.add(HttpMethod.DELETE, "/api/v1/lookups/{name}", this::delete);
  }

  /**
   * The table's name, after checking that the caller may read (any user) or change (a user with the
   * {@code edit_lookups} capability, as admin).
   */
  private String name(Exchange exchange, boolean change) {
    String authorization = exchange.header(HttpHeaderNames.AUTHORIZATION);
    if (change) {
      io.quarry.server.auth.Access access =
          authenticator.requireAccess(authorization, "Changing lookups");
      try {
        access.require(io.quarry.server.config.Role.EDIT_LOOKUPS, "Changing lookups");
      } catch (ApiException refused) {
        audit(access.user(), exchange, "denied", exchange.pathParameter("name"));
        throw refused;
      }
    } else {
      authenticator.requireUser(authorization, "Lookups");
    }
    String name = exchange.pathParameter("name");
    String problem = LookupStore.invalidName(name);
    if (problem != null) {
      throw ApiException.badRequest("INVALID_LOOKUP_NAME", "'" + name + "': " + problem);
    }
    return name;
  }

  private void list(Exchange exchange) throws IOException {
    authenticator.requireUser(exchange.header(HttpHeaderNames.AUTHORIZATION), "Lookups");
    List<Map<String, Object>> all = new ArrayList<>();
    for (Map.Entry<String, Integer> table : lookups.list().entrySet()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", table.getKey());
      entry.put("rows", table.getValue());
      all.add(entry);
    }
    exchange.json(HttpResponseStatus.OK, Map.of("lookups", all));
  }

  private void put(Exchange exchange) throws IOException {
    String name = name(exchange, true);
    byte[] body = new byte[exchange.bodyLength()];
    exchange.body().readNBytes(body, 0, body.length);
    LookupTable table;
    try {
      table = lookups.put(name, body);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("INVALID_CSV", "lookup '" + name + "': " + e.getMessage());
    }
    audit(user(exchange), exchange, "succeeded", name);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("name", name);
    answer.put("columns", table.columns());
    answer.put("rows", table.rows().size());
    exchange.json(HttpResponseStatus.OK, answer);
  }

  private void get(Exchange exchange) throws IOException {
    String name = name(exchange, false);
    byte[] csv = lookups.bytes(name);
    if (csv == null) {
      throw notFound(name);
    }
    exchange.send(HttpResponseStatus.OK, "text/csv; charset=UTF-8", csv, Map.of());
  }

  private void delete(Exchange exchange) throws IOException {
    String name = name(exchange, true);
    if (!lookups.delete(name)) {
      throw notFound(name);
    }
    audit(user(exchange), exchange, "succeeded", name);
    exchange.json(HttpResponseStatus.OK, Map.of("name", name, "deleted", true));
  }

  private String user(Exchange exchange) {
    return authenticator.requireUser(exchange.header(HttpHeaderNames.AUTHORIZATION), "Lookups");
  }

  /** Records a lookup change (or a refused one) in the audit trail. */
  private void audit(String user, Exchange exchange, String info, String name) {
    authenticator
        .audit()
        .record(
            io.quarry.server.auth.Authenticator.auditEvent(user, "edit_lookups", info)
                .with("operation", exchange.method().name())
                .with("object", name));
  }

  private static ApiException notFound(String name) {
    return new ApiException(
        HttpResponseStatus.NOT_FOUND, "LOOKUP_NOT_FOUND", "No lookup table '" + name + "'");
  }
}
