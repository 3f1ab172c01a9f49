package io.quarry.server.rest;

import static java.util.Objects.requireNonNull;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.Exchange;
import io.quarry.server.http.Router;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code GET /api/v1/sourcetypes}: the sourcetypes the server knows (built-in and configured), each
 * with its description, how it breaks events, how it finds their time, and its extractions.
 */
public final class SourcetypeRoutes {
  private final Authenticator authenticator;
  private final Sourcetypes sourcetypes;

  public SourcetypeRoutes(Authenticator authenticator, Sourcetypes sourcetypes) {
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
  }

  public void register(Router router) {
    router.add(HttpMethod.GET, "/api/v1/sourcetypes", this::list);
  }

  private void list(Exchange exchange) {
    authenticator.requireUser(exchange.header(HttpHeaderNames.AUTHORIZATION), "Sourcetypes");
    List<Map<String, Object>> all = new ArrayList<>();
    for (Sourcetype sourcetype : new TreeMap<>(sourcetypes.known()).values()) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", sourcetype.name());
      entry.put("description", sourcetype.description());
      entry.put("lineBreaker", sourcetype.lineBreaker().map(p -> p.pattern()).orElse("line ends"));
      entry.put("breakOnlyBefore", sourcetype.breakOnlyBefore().map(p -> p.pattern()).orElse(null));
      entry.put("maxLines", sourcetype.maxLines());
      entry.put("truncate", sourcetype.truncate());
      entry.put(
          "timePrefix", sourcetype.timestampRule().prefix().map(p -> p.pattern()).orElse(null));
      entry.put(
          "timeFormat",
          sourcetype.timestampRule().format().map(f -> f.pattern()).orElse("automatic"));
      entry.put("maxTimestampLookahead", sourcetype.timestampRule().lookahead());
      entry.put("timezone", sourcetype.timestampRule().zone().getId());
      entry.put("indexExtractions", sourcetype.indexExtractions().size());
      entry.put("kvMode", sourcetype.kvMode().configName());
      Map<String, String> types = new TreeMap<>();
      sourcetype.fieldTypes().forEach((field, type) -> types.put(field, type.configName()));
      entry.put("fields", types);
      all.add(entry);
    }
    exchange.json(HttpResponseStatus.OK, Map.of("sourcetypes", all));
  }
}
