package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.server.http.ApiException;
import io.quarry.server.sourcetype.KvMode;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.Map;

/**
 * The sourcetype one {@code collect} writes as, and whether it may hold summary events: the events
 * {@code collect} makes of a result without {@code _raw}, each value as {@code key="value"} with a
 * quote and a backslash inside it escaped ({@code \"}, {@code \\}). Only {@code kvMode:
 * auto_escaped} (the built-in {@code stash}'s) reads that back whole. Under {@code auto} a quoted
 * value ends at its first quote, so a collected value holding {@code " report=daily count=9 x="} (a
 * user agent, a URL: text an outsider chose) would end early and the rest of it read as pairs of
 * the summary event, forging its fields; {@code none}, {@code json} and {@code xml} read none of
 * its pairs. A result that keeps its {@code _raw} is written as that text, read as the sourcetype
 * reads its own events: any sourcetype holds it.
 *
 * <p>So a sourcetype other than an {@code auto_escaped} one is refused (400 {@code
 * COLLECT_SOURCETYPE}) when the search is planned, unless every result reaching {@code collect} is
 * an event keeping its {@code _raw} ({@link #check}, {@link
 * io.quarry.ql.exec.EventText#keepsEventsRaw}); and, the backstop, while it runs, before a page
 * holding a result without {@code _raw} is written ({@link #refuseSummaries}; the pages written
 * before it stay). Splunk writes any sourcetype named (counting it against the license when it is
 * not {@code stash}); refusing summaries under one that reads them wrong is Quarry's deliberate
 * difference (docs/commands/collect.md).
 */
final class CollectSourcetype {
  private final String sourcetype;
  private final KvMode mode;
  private final String command;

  private CollectSourcetype(String sourcetype, KvMode mode, String command) {
    this.sourcetype = requireNonNull(sourcetype, "sourcetype is null");
    this.mode = requireNonNull(mode, "mode is null");
    this.command = requireNonNull(command, "command is null");
  }

  /** {@code command}'s {@code sourcetype}, read as {@code sourcetypes} configure it. */
  static CollectSourcetype of(Sourcetypes sourcetypes, String sourcetype, String command) {
    return new CollectSourcetype(sourcetype, sourcetypes.forName(sourcetype).kvMode(), command);
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
