package io.quarry.server.audit;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One audited action, after Splunk's {@code audittrail} events: who ({@code user}), what ({@code
 * action}: {@code login attempt}, {@code logout}, {@code search}, {@code edit_lookups}, {@code
 * edit_macros}, …), how it went ({@code info}: {@code succeeded}, {@code failed}, {@code locked},
 * {@code granted}, {@code completed}, {@code cancelled}, …) and the action's own details, in order.
 *
 * <p>Stored with sourcetype {@code audittrail}; the event text is Splunk's shape, {@code
 * Audit:[timestamp=…, user=bob, action=search, info=completed, …, search='…']} (the search text
 * last), and every pair is also an index-time field, so {@code user=bob action=search} finds the
 * event by its term index and {@code stats count by user, action} reads doc values. A search reads
 * no pair out of the text: the built-in sourcetype has {@code kvMode: none} (Splunk's {@code
 * KV_MODE = none}), so the pairs a user types into the quoted query are no fields of the event. A
 * value longer than {@value #MAX_FIELD_CHARS} characters is cut in its field (and {@code
 * truncated=true} added); the event text keeps up to {@value #MAX_RAW_CHARS} characters of each.
 *
 * @param time when it happened
 * @param user who did it (the name presented for a failed login, {@code -} when none was)
 * @param action what was done
 * @param info how it went
 * @param details further pairs, in order (search id, query text, counts, client address, …)
 */
public record AuditEvent(
    Instant time, String user, String action, String info, Map<String, String> details) {
  /** Splunk's sourcetype for the audit trail. */
  public static final String SOURCETYPE = "audittrail";

  static final int MAX_FIELD_CHARS = 8_000;
  static final int MAX_RAW_CHARS = 65_536;

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX").withZone(ZoneOffset.UTC);

  public AuditEvent {
    requireNonNull(time, "time is null");
    requireNonNull(action, "action is null");
    requireNonNull(info, "info is null");
    user = user == null || user.isEmpty() ? "-" : user;
    Map<String, String> copy = new LinkedHashMap<>();
    requireNonNull(details, "details is null")
        .forEach((name, value) -> copy.put(name, value == null ? "" : value));
    details = java.util.Collections.unmodifiableMap(copy);
  }

  /** An event at {@code time} with no details yet; add them with {@link #with}. */
  public static AuditEvent of(Instant time, String user, String action, String info) {
    return new AuditEvent(time, user, action, info, Map.of());
  }

  /** A copy with one more detail (an existing name keeps its place and takes the new value). */
  public AuditEvent with(String name, Object value) {
    Map<String, String> more = new LinkedHashMap<>(details);
    more.put(name, value == null ? "" : value.toString());
    return new AuditEvent(time, user, action, info, more);
  }

  /** The event as stored in the {@code _audit} index. */
  Event toEvent(String host) {
    Map<String, String> pairs = new LinkedHashMap<>();
    pairs.put("user", user);
    pairs.put("action", action);
    pairs.put("info", info);
    details.forEach(
        (name, value) -> {
          if (!name.equals("search")) {
            pairs.put(name, value);
          }
        });
    String search = details.get("search");
    StringBuilder raw = new StringBuilder("Audit:[timestamp=").append(TIMESTAMP.format(time));
    Map<String, List<String>> fields = new LinkedHashMap<>();
    boolean truncated = false;
    for (Map.Entry<String, String> pair : pairs.entrySet()) {
      raw.append(", ").append(pair.getKey()).append('=').append(quoted(pair.getValue()));
      truncated |= field(fields, pair.getKey(), pair.getValue());
    }
    if (search != null) {
      raw.append(", search='").append(cut(search, MAX_RAW_CHARS)).append('\'');
      truncated |= field(fields, "search", search);
    }
    raw.append(']');
    if (truncated) {
      fields.put("truncated", List.of("true"));
    }
    long micros = time.getEpochSecond() * 1_000_000L + time.getNano() / 1_000;
    return new Event(micros, raw.toString(), host, "quarry", SOURCETYPE, fields);
  }

  /** Adds a field, cut to {@value #MAX_FIELD_CHARS}; answers whether it was cut. */
  private static boolean field(Map<String, List<String>> fields, String name, String value) {
    fields.put(name, List.of(cut(value, MAX_FIELD_CHARS)));
    return value.length() > MAX_FIELD_CHARS;
  }

  /** A value as automatic key=value extraction reads it back: quoted when it has a separator. */
  private static String quoted(String value) {
    String cut = cut(value, MAX_RAW_CHARS);
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      if (Character.isWhitespace(c) || c == ',' || c == ';' || c == '&' || c == '"' || c == ']') {
        return '"' + cut.replace('"', '\'') + '"';
      }
    }
    return cut.isEmpty() ? "\"\"" : cut;
  }

  private static String cut(String value, int max) {
    return value.length() <= max ? value : value.substring(0, max);
  }
}
