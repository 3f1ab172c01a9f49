package io.quarry.server.sourcetype;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields of one access-log line under Splunk's names, as {@link AccessLogParser} found their
 * bounds (start and end of field {@code i} at {@code 2i} and {@code 2i + 1}; a negative start where
 * the line has none). A lookup by name cuts only that field out of the line: a {@code stats count
 * by clientip} copies one short string per event, not thirteen.
 */
final class AccessLogFields extends AbstractMap<String, List<Object>> {
  /** Splunk's names, in the regex's group order. */
  static final List<String> NAMES =
      List.of(
          "clientip",
          "ident",
          "user",
          "req_time",
          "method",
          "uri",
          "uri_path",
          "uri_query",
          "version",
          "status",
          "bytes",
          "referer",
          "useragent");

  private static final Map<String, Integer> INDEX = indexOf();

  private final String line;
  private final int[] bounds;

  AccessLogFields(String line, int[] bounds) {
    this.line = line;
    this.bounds = bounds;
  }

  private static Map<String, Integer> indexOf() {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < NAMES.size(); i++) {
      index.put(NAMES.get(i), i);
    }
    return Map.copyOf(index);
  }

  private List<Object> field(int i) {
    int start = bounds[2 * i];
    return start < 0 ? null : List.of(line.substring(start, bounds[2 * i + 1]));
  }

  @Override
  public List<Object> get(Object name) {
    Integer i = INDEX.get(name);
    return i == null ? null : field(i);
  }

  @Override
  public boolean containsKey(Object name) {
    Integer i = INDEX.get(name);
    return i != null && bounds[2 * i] >= 0;
  }

  @Override
  public Set<Entry<String, List<Object>>> entrySet() {
    Map<String, List<Object>> map = new LinkedHashMap<>();
    for (int i = 0; i < NAMES.size(); i++) {
      List<Object> value = field(i);
      if (value != null) {
        map.put(NAMES.get(i), value);
      }
    }
    return map.entrySet();
  }
}
