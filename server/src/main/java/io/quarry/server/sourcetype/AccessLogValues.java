package io.quarry.server.sourcetype;

import java.util.List;

/**
 * The index-time values an access log repeats on nearly every line — each three-digit status and
 * the common request methods — made once, as the one-value lists an event's field map holds: a
 * line's {@code status} and {@code method} then cost no string, bytes or list of their own, and the
 * block writer's tally meets the same string again (its hash cached, equal by identity). Values are
 * immutable, so sharing them changes no answer.
 */
final class AccessLogValues {
  private AccessLogValues() {}

  /** The methods kept: RFC 9110's, plus PATCH. Any other is made per line. */
  private static final List<String> METHODS =
      List.of("GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE");

  @SuppressWarnings("unchecked")
  private static final List<String>[] METHOD_VALUES = new List[METHODS.size()];

  @SuppressWarnings("unchecked")
  private static final List<String>[] STATUS_VALUES = new List[1000];

  static {
    for (int i = 0; i < METHOD_VALUES.length; i++) {
      METHOD_VALUES[i] = List.of(METHODS.get(i));
    }
    for (int code = 0; code < STATUS_VALUES.length; code++) {
      STATUS_VALUES[code] = List.of(String.format("%03d", code));
    }
  }

  /** The value of status {@code d0 d1 d2}, three ASCII digits. */
  static List<String> status(char d0, char d1, char d2) {
    return STATUS_VALUES[(d0 - '0') * 100 + (d1 - '0') * 10 + (d2 - '0')];
  }

  /** How many methods are kept; {@link #methodName} and {@link #method} take 0 up to it. */
  static int methods() {
    return METHOD_VALUES.length;
  }

  /** Kept method {@code i}'s name. */
  static String methodName(int i) {
    return METHODS.get(i);
  }

  /** Kept method {@code i}'s value. */
  static List<String> method(int i) {
    return METHOD_VALUES[i];
  }
}
