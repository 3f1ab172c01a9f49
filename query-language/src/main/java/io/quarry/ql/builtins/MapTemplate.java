package io.quarry.ql.builtins;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The search {@code map} runs per result, with Splunk's {@code $field$} tokens: each is replaced,
 * as text, by the result's value of that field ({@code $_serial_id$}: the run's number from 1). A
 * {@code $} that does not start such a token ({@code $5}, {@code $ x$}) is text.
 */
record MapTemplate(String text) {
  /** {@code $name$}: a name without spaces, quotes or dollars. */
  private static final Pattern TOKEN = Pattern.compile("\\$([^$\\s\"']+)\\$");

  /** The run's number, from 1 (Splunk's). */
  static final String SERIAL_ID = "_serial_id";

  MapTemplate {
    requireNonNull(text, "text is null");
  }

  /** The fields the tokens name, in order of first use ({@code _serial_id} left out). */
  Set<String> fields() {
    Set<String> fields = new LinkedHashSet<>();
    Matcher matcher = TOKEN.matcher(text);
    while (matcher.find()) {
      if (!matcher.group(1).equals(SERIAL_ID)) {
        fields.add(matcher.group(1));
      }
    }
    return fields;
  }

  /**
   * The text with every token replaced by its value.
   *
   * @param values the result's value of each field of {@link #fields()} that it has
   * @param serial the run's number
   * @return the search, or null when the result lacks a field a token names ({@link #missing})
   */
  String substitute(Map<String, String> values, long serial) {
    Matcher matcher = TOKEN.matcher(text);
    StringBuilder out = new StringBuilder(text.length() + 32);
    while (matcher.find()) {
      String name = matcher.group(1);
      String value = name.equals(SERIAL_ID) ? Long.toString(serial) : values.get(name);
      if (value == null) {
        return null;
      }
      matcher.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  /** The text with every token replaced by {@code placeholder}. */
  String withTokens(String placeholder) {
    return TOKEN.matcher(text).replaceAll(java.util.regex.Matcher.quoteReplacement(placeholder));
  }

  /** The fields a token names that {@code values} lacks. */
  List<String> missing(Map<String, String> values) {
    List<String> missing = new ArrayList<>();
    for (String field : fields()) {
      if (!values.containsKey(field)) {
        missing.add(field);
      }
    }
    return missing;
  }
}
