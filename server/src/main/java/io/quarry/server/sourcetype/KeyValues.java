package io.quarry.server.sourcetype;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Automatic {@code key=value} extraction: {@code key=value} and {@code key="quoted value"} pairs,
 * keys starting with a letter or {@code _}; a key seen twice gets both values. Used at search time
 * (always, after the sourcetype's and JSON extraction) and at index time ({@code type: kv}).
 */
public final class KeyValues {
  private static final Pattern KEY_VALUE =
      Pattern.compile("(?<![\\w.-])([A-Za-z_][\\w.-]{0,99})=(?:\"([^\"]*)\"|([^\\s,;&\"]+))");

  private KeyValues() {}

  public static Map<String, List<String>> extract(String raw) {
    Map<String, List<String>> fields = new LinkedHashMap<>();
    Matcher pairs = KEY_VALUE.matcher(raw);
    while (pairs.find()) {
      String value = pairs.group(2) != null ? pairs.group(2) : pairs.group(3);
      fields.computeIfAbsent(pairs.group(1), k -> new ArrayList<>()).add(value);
    }
    return fields;
  }
}
