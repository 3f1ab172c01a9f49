package io.quarry.server.sourcetype;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The built-in sourcetypes. An unknown name gets the generic rules: every timestamp format, no
 * extraction beyond the automatic key=value and JSON ones the search runtime always applies.
 */
public final class Sourcetypes {
  /** Splunk's field names for the Apache combined and common formats. */
  static final Pattern ACCESS_LOG =
      Pattern.compile(
          "^(?<clientip>\\S+) (?<ident>\\S+) (?<user>\\S+) \\[(?<reqtime>[^\\]]+)\\]"
              + " \"(?<method>[A-Z]+) (?<uri>(?<uripath>[^\\s?\"]*)(?:\\?(?<uriquery>[^\\s\"]*))?)"
              + "(?: (?<version>[^\"]*))?\" (?<status>\\d{3}) (?<bytes>\\d+|-)"
              + "(?: \"(?<referer>[^\"]*)\" \"(?<useragent>[^\"]*)\")?");

  /** Group names that differ from Splunk's field names (Java group names cannot hold '_'). */
  public static final Map<String, String> GROUP_TO_FIELD =
      Map.of("reqtime", "req_time", "uripath", "uri_path", "uriquery", "uri_query");

  private static final List<TimestampFormat> ALL_FORMATS = List.of(TimestampFormat.values());

  private static final Map<String, Sourcetype> BUILT_IN =
      Map.of(
          "access_combined",
          new Sourcetype(
              "access_combined", List.of(TimestampFormat.APACHE_ACCESS), Optional.of(ACCESS_LOG)),
          "access_common",
          new Sourcetype(
              "access_common", List.of(TimestampFormat.APACHE_ACCESS), Optional.of(ACCESS_LOG)),
          "apache_error",
          new Sourcetype("apache_error", List.of(TimestampFormat.APACHE_ERROR), Optional.empty()),
          "syslog",
          new Sourcetype("syslog", List.of(TimestampFormat.SYSLOG), Optional.empty()),
          "linux_secure",
          new Sourcetype("linux_secure", List.of(TimestampFormat.SYSLOG), Optional.empty()),
          "_json",
          new Sourcetype(
              "_json", List.of(TimestampFormat.ISO_8601, TimestampFormat.EPOCH), Optional.empty()));

  private Sourcetypes() {}

  private static final java.util.concurrent.ConcurrentMap<String, Sourcetype> OTHERS =
      new java.util.concurrent.ConcurrentHashMap<>();

  public static Sourcetype forName(String name) {
    Sourcetype builtIn = BUILT_IN.get(name);
    if (builtIn != null) {
      return builtIn;
    }
    if (OTHERS.size() > 10_000) {
      return new Sourcetype(name, ALL_FORMATS, Optional.empty()); // do not grow without bound
    }
    return OTHERS.computeIfAbsent(name, n -> new Sourcetype(n, ALL_FORMATS, Optional.empty()));
  }

  /** The field name for a named group of an extraction. */
  public static String fieldName(String group) {
    return GROUP_TO_FIELD.getOrDefault(group, group);
  }
}
