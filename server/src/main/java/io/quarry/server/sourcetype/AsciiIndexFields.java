package io.quarry.server.sourcetype;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import io.quarry.codecs.store.SmallFieldMap;
import io.quarry.ql.exec.AsciiRegex;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sourcetype's index-time extractions run over an ASCII event's bytes, with no {@code String} of
 * the event: the built-in access-log one through {@link AccessLogParser}, a {@code regex} one in
 * {@link AsciiRegex}'s subset through its one pass. Made only when every extraction of the
 * sourcetype is one of those ({@link #of}); {@link #fields} answers what {@link
 * Sourcetype#indexFields(String)} answers for the same text (same fields and values, earlier
 * extractions winning, default and underscore fields left out; {@code AsciiIndexFieldsTest}), or
 * null when an extraction cannot decide from the bytes (an access-log line its parser does not
 * know, a byte above 127), and the event takes the {@code String} path.
 *
 * <p>Why: one index-time regex besides the access-log one sent every event of the sourcetype down
 * the {@code String} path (a {@code String}, a {@code LinkedHashMap}, {@code java.util.regex} per
 * extraction): 10M access-log lines with a {@code JSESSIONID} field took 93.0 s of server CPU that
 * way against 75.5 s on this path (session 47, three alternated pairs; ~54 s without the field).
 */
final class AsciiIndexFields {
  /** One extraction over bytes: the access-log one (regex null) or a regex's named groups. */
  private record Step(String regex, int[] groups, String[] names) {}

  private final Step[] steps;
  private final int capacity; // the most fields all steps give together
  private final ThreadLocal<AsciiRegex[]> matchers; // one per step and thread (not thread-safe)

  private AsciiIndexFields(Step[] steps, int capacity) {
    this.steps = steps;
    this.capacity = capacity;
    this.matchers =
        ThreadLocal.withInitial(
            () -> {
              AsciiRegex[] each = new AsciiRegex[steps.length];
              for (int s = 0; s < steps.length; s++) {
                each[s] = steps[s].regex() == null ? null : AsciiRegex.compile(steps[s].regex());
              }
              return each;
            });
  }

  /**
   * The byte path of {@code extractions}, or null when one of them cannot run on bytes (a {@code
   * json} or {@code kv} extraction, a regex outside {@link AsciiRegex}'s subset) or there is none.
   */
  static AsciiIndexFields of(List<IndexExtraction> extractions) {
    if (extractions.isEmpty()) {
      return null;
    }
    Step[] steps = new Step[extractions.size()];
    int capacity = 0;
    for (int s = 0; s < steps.length; s++) {
      IndexExtraction extraction = extractions.get(s);
      if (extraction instanceof IndexExtraction.AccessLog) {
        steps[s] = new Step(null, null, null);
        capacity += AccessLogParser.INDEX_FIELDS.size();
      } else if (extraction instanceof IndexExtraction.Regex(NamedGroups groups)) {
        // the expression as compiled (group names with '_' renamed), so the numbers are its own
        String regex = groups.pattern().pattern();
        if (groups.pattern().flags() != 0 || AsciiRegex.compile(regex) == null) {
          return null;
        }
        // fields the String path would drop afterwards are never kept: dropping goes by name
        List<Map.Entry<Integer, String>> kept =
            groups.fields().stream().filter(f -> Sourcetype.keepsIndexField(f.getValue())).toList();
        int[] numbers = new int[kept.size()];
        String[] names = new String[kept.size()];
        for (int i = 0; i < numbers.length; i++) {
          numbers[i] = kept.get(i).getKey();
          names[i] = kept.get(i).getValue();
        }
        steps[s] = new Step(regex, numbers, names);
        capacity += numbers.length;
      } else {
        return null;
      }
    }
    return new AsciiIndexFields(steps, capacity);
  }

  /**
   * The index-time fields of the ASCII text {@code ascii[offset, offset + length)}, as the event's
   * map (a {@code SmallFieldMap}, a {@code LinkedHashMap} past its size; callers copy it), or null
   * when the {@code String} path must answer.
   */
  @SuppressWarnings("unchecked")
  Map<String, List<String>> fields(byte[] ascii, int offset, int length) {
    AsciiRegex[] regexes = matchers.get();
    Map.Entry<String, List<String>>[] fields = new Map.Entry[capacity];
    int count = 0;
    for (int s = 0; s < steps.length; s++) {
      Step step = steps[s];
      if (step.regex() == null) {
        Map<String, List<String>> access = AccessLogParser.indexFields(ascii, offset, length);
        if (access == null) {
          return null; // a line the parser does not know: the regex decides it
        }
        for (Map.Entry<String, List<String>> field : access.entrySet()) {
          count = putIfAbsent(fields, count, field.getKey(), field.getValue());
        }
        continue;
      }
      AsciiRegex regex = regexes[s];
      int found = regex.find(ascii, offset, length);
      if (found == AsciiRegex.UNDECIDED) {
        return null;
      }
      if (found == AsciiRegex.MATCH) {
        for (int i = 0; i < step.groups().length; i++) {
          String name = step.names()[i];
          if (indexOf(fields, count, name) < 0) {
            int start = regex.start(step.groups()[i]);
            String value =
                new String(ascii, offset + start, regex.end(step.groups()[i]) - start, ISO_8859_1);
            fields[count++] = Map.entry(name, List.of(value));
          }
        }
      }
    }
    if (count == 0) {
      return Map.of();
    }
    if (count <= SmallFieldMap.MAX_FIELDS) {
      return SmallFieldMap.ofEntries(
          count == fields.length ? fields : Arrays.copyOf(fields, count));
    }
    Map<String, List<String>> many = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      many.put(fields[i].getKey(), fields[i].getValue());
    }
    return many;
  }

  private static int putIfAbsent(
      Map.Entry<String, List<String>>[] fields, int count, String name, List<String> value) {
    if (indexOf(fields, count, name) >= 0) {
      return count;
    }
    fields[count] = Map.entry(name, value);
    return count + 1;
  }

  private static int indexOf(Map.Entry<String, List<String>>[] fields, int count, String name) {
    for (int i = 0; i < count; i++) {
      if (fields[i].getKey().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
