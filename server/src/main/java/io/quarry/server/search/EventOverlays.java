package io.quarry.server.search;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.exec.ReduceCoverage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The fields {@code eventstats} and {@code streamstats} lay over the events of a listing ({@code
 * index=web | eventstats count by host}), so that {@link EventListing} pages the answer by the
 * fields each row lists. Each command hands on an event that falls in a group (every by-field has a
 * value) with its results set over the event in the order of its aggregations — a result with a
 * value listed (after the event's own fields when new), a null one no longer listed and without a
 * value —, and an event in no group as it came; past its row cap {@code eventstats} sets its
 * truncation note on every row. The commands run as stages before the listing ({@code
 * EventStatsOperator}, {@code StreamStatsOperator}: a position in no group keeps its own values),
 * and {@link #apply} replays per row, from the answer's columns, what the commands laid over it:
 * whether a row fell in a group is read off its by-fields' columns, whether a result had a value
 * off the result's column.
 *
 * <p>That replay is exact where the columns it reads are those the command saw or set: among the
 * commands after the listing only those that keep the events ({@link ListedCommands#keepsEvents})
 * and these two; no field set twice, nor a result named as an earlier command's by-field. A result
 * named as a default field ({@code eventstats count AS host}) takes that field's place in the row,
 * its column read as any field's (a null result: the row no longer lists it); one named as its own
 * command's by-field ({@code count AS region by region}) holds a value exactly where the row fell
 * in a group (the by-field had one; a null result: the row lists no such field, as Splunk's
 * eventstats leaves it), which is what the replay reads off that column. A result a later command
 * reads is fine: the source reads it, so where a row fell in no group its column holds the event's
 * own value (search-time included). Among other commands that change fields ({@code eval} and the
 * like) {@link ListedFields} replays each command's overlay in order, reading where a row fell in a
 * group and where a result had a value off the marks its stage's page leaves where a later command
 * sets a by-field or another command a result ({@code ListingMarks.valueColumn}); no other pipeline
 * is replayed here.
 */
final class EventOverlays {
  /** The note {@code eventstats} sets on every row once it stopped reading. */
  private static final String TRUNCATED = "eventstats_truncated";

  /** One command's overlay: its by-fields and its result fields in order, each once. */
  private record Overlay(List<String> groupBy, List<String> results, boolean truncates) {}

  private final List<Overlay> overlays;
  private final Set<String> changed;
  private final boolean plugin; // the fields each row's PluginOverlayOperator.OVERLAID column names

  private EventOverlays(List<Overlay> overlays) {
    this(overlays, false);
  }

  private EventOverlays(List<Overlay> overlays, boolean plugin) {
    this.plugin = plugin;
    this.overlays = List.copyOf(overlays);
    Set<String> fields = new HashSet<>();
    for (Overlay overlay : overlays) {
      fields.addAll(overlay.results());
      if (overlay.truncates()) {
        fields.add(TRUNCATED);
      }
    }
    this.changed = Set.copyOf(fields);
  }

  /**
   * The overlays of the commands after an event listing, or null when they are not only commands
   * that keep the events and at least one {@code eventstats}/{@code streamstats} with page stages,
   * replayed exactly (see the class comment).
   */
  static EventOverlays of(List<Command> commands) {
    List<Overlay> overlays = new ArrayList<>();
    Set<String> kept = new HashSet<>(); // an earlier command's by-fields: replay reads them
    Set<String> set = new HashSet<>();
    for (Command command : commands) {
      StatsCommand stats =
          switch (command) {
            case EventStatsCommand eventstats -> eventstats.stats();
            case StreamStatsCommand streamstats -> streamstats.stats();
            default -> null;
          };
      if (stats == null) {
        if (!ListedCommands.keepsEvents(command)) {
          return null;
        }
        continue;
      }
      if (!ReduceCoverage.inOrder(command)) {
        return null; // a function without a page implementation
      }
      Set<String> results = new LinkedHashSet<>(); // first-set order, as the row's map
      for (Aggregation aggregation : stats.aggregations()) {
        results.add(aggregation.outputName());
      }
      boolean truncates = command instanceof EventStatsCommand;
      for (String result : truncates ? withTruncated(results) : results) {
        if (!set.add(result) || kept.contains(result)) {
          // set twice, or an earlier command's by-field: its column holds the last value only
          return null;
        }
      }
      kept.addAll(stats.groupBy());
      overlays.add(new Overlay(stats.groupBy(), List.copyOf(results), truncates));
    }
    if (overlays.isEmpty()) {
      return null;
    }
    return new EventOverlays(overlays);
  }

  private static Set<String> withTruncated(Set<String> results) {
    Set<String> all = new LinkedHashSet<>(results);
    all.add(TRUNCATED);
    return all;
  }

  /**
   * A plugin command's overlay ({@link io.quarry.ql.exec.PluginOverlayOperator}): at each row, the
   * fields its {@link io.quarry.ql.exec.PluginOverlayOperator#OVERLAID} column names, in order, set
   * over the row (a value listed, last when new; no value: no longer listed, no value at all).
   */
  static EventOverlays plugin() {
    return new EventOverlays(List.of(), true);
  }

  /** The fields the commands set on some row: their results, and the truncation note. */
  Set<String> fields() {
    return changed;
  }

  /** The by-fields of the commands, whose final columns tell the rows that fell in a group. */
  Set<String> groupBy() {
    Set<String> fields = new LinkedHashSet<>();
    overlays.forEach(overlay -> fields.addAll(overlay.groupBy()));
    return fields;
  }

  /** Whether a command sets {@code field} on some row: its column is not the event's own. */
  boolean changes(String field) {
    return plugin || changed.contains(field);
  }

  /**
   * Replays the overlays on a row's field names (the event's, in its order), in command order.
   *
   * @param hasValue whether the row's answer column of a field holds a value
   * @param cleared takes the fields the row no longer has: no value, not even the event's own
   */
  void apply(
      List<String> names,
      Predicate<String> hasValue,
      java.util.function.Function<String, List<Object>> values,
      Set<String> cleared) {
    if (plugin) {
      for (Object field : values.apply(io.quarry.ql.exec.PluginOverlayOperator.OVERLAID)) {
        ListedFields.set((String) field, hasValue.test((String) field), names, cleared);
      }
      return;
    }
    for (Overlay overlay : overlays) {
      if (overlay.groupBy().stream().allMatch(hasValue)) { // the row fell in a group
        for (String field : overlay.results()) {
          ListedFields.set(field, hasValue.test(field), names, cleared);
        }
      }
      if (overlay.truncates() && hasValue.test(TRUNCATED) && !names.contains(TRUNCATED)) {
        names.add(TRUNCATED);
      }
    }
  }
}
