package io.quarry.server.rest;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.http.Exchange;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splunk's knowledge-object collections as its SDKs read them ({@code saved/searches}, {@code
 * configs/conf-macros}): a feed of entries, each with a name, an {@code id} its SDKs follow back
 * (under {@code /servicesNS/<owner>/search/}), the object's settings as {@code content} and its
 * {@code eai:acl} — in Splunk's Atom XML by default or its JSON feed with {@code output_mode=json}.
 */
final class SplunkEntities {
  private SplunkEntities() {}

  /**
   * Where Splunk serves the collection at {@code path} (e.g. {@code saved/searches}): under {@code
   * /services/} and under {@code /servicesNS/<owner>/<app>/}, which its SDKs use once they know an
   * object's owner.
   */
  static List<String> paths(String path) {
    return List.of("/services/" + path, "/servicesNS/{owner}/{app}/" + path);
  }

  /** One object of a collection. */
  record Entity(
      String name, String owner, Instant updated, String sharing, Map<String, Object> content) {}

  /** Answers {@code entities} as a feed of the collection at {@code path} (e.g. saved/searches). */
  static void answer(
      Exchange exchange, HttpResponseStatus status, String path, List<Entity> entities) {
    if (SplunkJobRoutes.xml(exchange)) {
      List<SplunkAtom.Entry> entries = new ArrayList<>();
      for (Entity entity : entities) {
        Map<String, Object> content = new LinkedHashMap<>(entity.content());
        content.put("eai:acl", acl(entity.owner(), entity.sharing()));
        entries.add(
            new SplunkAtom.Entry(
                entity.name(),
                id(path, entity),
                entity.updated().toString(),
                entity.owner(),
                content));
      }
      exchange.text(
          status, SplunkAtom.CONTENT_TYPE, SplunkAtom.feed(path, "/services/" + path, entries));
      return;
    }
    List<Map<String, Object>> entries = new ArrayList<>();
    for (Entity entity : entities) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("name", entity.name());
      entry.put("id", id(path, entity));
      entry.put("updated", entity.updated().toString());
      entry.put("author", entity.owner());
      entry.put("content", entity.content());
      entry.put("acl", acl(entity.owner(), entity.sharing()));
      entries.add(entry);
    }
    exchange.json(status, feed("/services/" + path, entries));
  }

  /** Splunk's JSON feed around {@code entries}. */
  static Map<String, Object> feed(String origin, List<Map<String, Object>> entries) {
    Map<String, Object> feed = new LinkedHashMap<>();
    feed.put("links", Map.of());
    feed.put("origin", origin);
    feed.put("generator", Map.of("version", io.quarry.server.Version.current()));
    feed.put("entry", entries);
    feed.put("paging", Map.of("total", entries.size(), "perPage", 0, "offset", 0));
    feed.put("messages", List.of());
    return feed;
  }

  /** The object's access: its owner and admin may read and write it. */
  static Map<String, Object> acl(String owner, String sharing) {
    Map<String, Object> acl = new LinkedHashMap<>();
    acl.put("owner", owner);
    acl.put("app", "search");
    acl.put("sharing", sharing);
    acl.put(
        "perms",
        Map.of(
            "read",
            List.of(owner, Authenticator.ADMIN_USER),
            "write",
            List.of(owner, Authenticator.ADMIN_USER)));
    acl.put("can_write", true);
    acl.put("modifiable", true);
    return acl;
  }

  private static String id(String path, Entity entity) {
    return "/servicesNS/"
        + encode(entity.owner())
        + "/search/"
        + path
        + "/"
        + encode(entity.name());
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
