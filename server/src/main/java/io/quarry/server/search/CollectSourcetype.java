package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.plan.WritesEvents;
import io.quarry.server.http.ApiException;
import io.quarry.server.sourcetype.KvMode;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.List;
import java.util.Map;

/**
 * The sourcetype one {@code collect} writes as, and whether it may hold summary events: the events
 * {@code collect} makes of a result without {@code _raw}, each value as {@code key="value"} with a
 * quote and a backslash inside it escaped ({@code \"}, {@code \\}). Only {@code kvMode:
 * auto_escaped} (the built-in {@code stash}'s) reads that back whole. Under {@code auto} a quoted
 * value ends at its first quote, so a collected value holding {@code " report=daily count=9 x="} (a
 * user agent, a URL: text an outsider chose) would end early and the rest of it read as pairs of
 * the summary event, forging its fields; {@code none}, {@code json} and {@code xml} read none of
 * its pairs. A result that keeps its {@code _raw} is written as that text, but its text was written
 * to be read as its own sourcetype reads it: a {@code stash} event's escaped pairs, a {@code _json}
 * event's object, read under {@code auto} forge pairs the same way. So a kept text is held only by
 * a sourcetype read with the kvMode of the event's own sourcetype.
 *
 * <p>So a sourcetype other than an {@code auto_escaped} one is refused (400 {@code
 * COLLECT_SOURCETYPE}) when the search is planned, unless every result reaching {@code collect} is
 * an event keeping its {@code _raw} ({@link #check}, {@link
 * io.quarry.ql.exec.EventText#keepsEventsRaw}); and while it runs, before a page is written ({@link
 * #refuse}; the pages written before it stay), when the page holds a result without {@code _raw} or
 * one whose own sourcetype (the event's {@code sourcetype} field) is missing or read with another
 * kvMode. The planning cannot know the events' sourcetypes (a search reads whatever its indexes
 * hold), so the run-time check is the rule for kept texts. Splunk writes any sourcetype named
 * (counting it against the license when it is not {@code stash}); refusing what it would read wrong
 * is Quarry's deliberate difference (docs/commands/collect.md).
 */
final class CollectSourcetype {
  private final Sourcetypes sourcetypes;
  private final String sourcetype;
  private final KvMode mode;
  private final String command;

  private CollectSourcetype(
      Sourcetypes sourcetypes, String sourcetype, KvMode mode, String command) {
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
    this.sourcetype = requireNonNull(sourcetype, "sourcetype is null");
    this.mode = requireNonNull(mode, "mode is null");
    this.command = requireNonNull(command, "command is null");
  }

  /** {@code command}'s {@code sourcetype}, read as {@code sourcetypes} configure it. */
  static CollectSourcetype of(Sourcetypes sourcetypes, String sourcetype, String command) {
    return new CollectSourcetype(
        sourcetypes, sourcetype, sourcetypes.forName(sourcetype).kvMode(), command);
  }

  /** Whether it reads a summary event's escaped pairs back whole ({@code kvMode: auto_escaped}). */
  boolean holdsSummaries() {
    return mode == KvMode.AUTO_ESCAPED;
  }

  /**
   * At planning: refuses the sourcetype unless it holds summaries or {@code keepsRaw}, every result
   * reaching the command being an event with its own {@code _raw}.
   */
  void check(boolean keepsRaw) {
    if (!keepsRaw) {
      refuseSummaries();
    }
  }

  /**
   * At run time, before any of {@code events} is written, throws 400 {@code COLLECT_SOURCETYPE}:
   * for a sourcetype that {@link #holdsSummaries}, when a kept text's own sourcetype reads no
   * {@code key=value} pair ({@code json}, {@code xml}, {@code none}; a kept text of an {@code auto}
   * sourcetype is still written, Splunk's own summary copies rely on that); for any other, when the
   * page holds a summary event, or a kept text whose origin is unknown or read with another kvMode
   * than this sourcetype's.
   */
  void refuse(List<WritesEvents.Written> events) {
    if (holdsSummaries()) {
      refusePairless(events);
      return;
    }
    for (WritesEvents.Written event : events) {
      if (event.summary()) {
        refuseSummaries();
      }
    }
    for (WritesEvents.Written event : events) {
      KvMode origin = event.origin() == null ? null : sourcetypes.forName(event.origin()).kvMode();
      if (origin != mode) {
        refuseKept(event.origin(), origin);
      }
    }
  }

  /**
   * For a sourcetype that {@link #holdsSummaries}: throws 400 {@code COLLECT_SOURCETYPE} for a kept
   * text whose own sourcetype reads no {@code key=value} pair ({@code json}, {@code xml}, {@code
   * none}): {@code auto_escaped} would read pairs out of it (a {@code report=daily} inside a JSON
   * string) that the event never had. A kept text of an {@code auto} or {@code auto_escaped}
   * sourcetype, or of none known, is still written (docs/commands/collect.md).
   */
  private void refusePairless(List<WritesEvents.Written> events) {
    for (WritesEvents.Written event : events) {
      if (event.summary() || event.origin() == null) {
        continue;
      }
      KvMode origin = sourcetypes.forName(event.origin()).kvMode();
      if (!origin.readsPairs()) {
        throw ApiException.of(
            400,
            "COLLECT_SOURCETYPE",
            command
                + ": sourcetype '"
                + sourcetype
                + "' cannot hold these events: a result keeping its _raw is an event of"
                + " sourcetype '"
                + event.origin()
                + "' (kvMode "
                + origin.configName()
                + ", which reads no key=value pair), whose text would be read as kvMode "
                + mode.configName()
                + ": a key=value inside it (in a JSON string, an XML text) would be read as a"
                + " field the event never had. Use sourcetype="
                + event.origin()
                + " (the events' own), or drop _raw (fields - _raw) to write summary events",
            Map.of(
                "sourcetype",
                sourcetype,
                "kvMode",
                mode.configName(),
                "eventSourcetype",
                event.origin(),
                "eventKvMode",
                origin.configName()),
            Map.of());
      }
    }
  }

  private void refuseKept(String origin, KvMode originMode) {
    String why =
        origin == null
            ? "a result keeping its _raw has no sourcetype field, so how its text is read is"
                + " unknown"
            : "a result keeping its _raw is an event of sourcetype '"
                + origin
                + "' (kvMode "
                + originMode.configName()
                + "), whose text would be read as kvMode "
                + mode.configName()
                + ": a quote or escape written for its own reading could end a value early and the"
                + " rest read as fields";
    throw ApiException.of(
        400,
        "COLLECT_SOURCETYPE",
        command
            + ": sourcetype '"
            + sourcetype
            + "' cannot hold these events: "
            + why
            + ". Use sourcetype=stash (the default), a sourcetype configured with kvMode:"
            + " auto_escaped, or one read with the events' own kvMode",
        origin == null
            ? Map.of("sourcetype", sourcetype, "kvMode", mode.configName())
            : Map.of(
                "sourcetype",
                sourcetype,
                "kvMode",
                mode.configName(),
                "eventSourcetype",
                origin,
                "eventKvMode",
                originMode.configName()),
        Map.of());
  }

  /** Throws 400 {@code COLLECT_SOURCETYPE} unless the sourcetype {@link #holdsSummaries}. */
  void refuseSummaries() {
    if (holdsSummaries()) {
      return;
    }
    String why =
        mode == KvMode.AUTO
            ? "it reads key=value pairs as kvMode auto, where a quoted value ends at its first"
                + " quote: a collected value holding a quote (written escaped, \\\") would end there"
                + " and the rest of it read as fields of the summary event"
            : "it reads no key=value pair (kvMode "
                + mode.configName()
                + "), so the summary's"
                + " fields would not read back";
    throw ApiException.of(
        400,
        "COLLECT_SOURCETYPE",
        command
            + ": sourcetype '"
            + sourcetype
            + "' cannot hold summary events: "
            + why
            + ". Use sourcetype=stash (the default) or a sourcetype configured with kvMode:"
            + " auto_escaped",
        Map.of("sourcetype", sourcetype, "kvMode", mode.configName()),
        Map.of());
  }
}
