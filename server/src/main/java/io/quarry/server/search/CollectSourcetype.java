package io.quarry.server.search;

import io.quarry.server.http.ApiException;
import io.quarry.server.sourcetype.KvMode;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.Map;

/**
 * The sourcetypes {@code collect} may write its summary events as: those read {@code kvMode:
 * auto_escaped}, as the built-in {@code stash} is. A summary event holds each value as {@code
 * key="value"} with a quote and a backslash inside it escaped ({@code \"}, {@code \\}); only {@code
 * auto_escaped} reads that back whole. Under {@code auto} a quoted value ends at its first quote,
 * so a collected value holding {@code " report=daily count=9 x="} (a user agent, a URL: text an
 * outsider chose) would end early and the rest of it read as pairs of the summary event, forging
 * its fields; {@code none}, {@code json} and {@code xml} read none of its pairs. Any other
 * sourcetype is refused when the search is planned, before it reads or writes anything (400 {@code
 * COLLECT_SOURCETYPE}), whether or not a result would hold a quote: what the search returns is not
 * known then. Splunk writes any sourcetype named (counting it against the license when it is not
 * {@code stash}, as recalled); refusing is Quarry's deliberate difference
 * (docs/commands/collect.md).
 */
final class CollectSourcetype {
  private CollectSourcetype() {}

  /** Refuses {@code command}'s {@code sourcetype} unless it reads escaped pairs back whole. */
  static void check(Sourcetypes sourcetypes, String sourcetype, String command) {
    KvMode mode = sourcetypes.forName(sourcetype).kvMode();
    if (mode == KvMode.AUTO_ESCAPED) {
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
