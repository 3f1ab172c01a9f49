package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.SearchInfo;
import io.quarry.ql.exec.SearchResources;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code addinfo}: every result gets the search's own facts — {@code info_min_time} and {@code
 * info_max_time}, its time range in epoch seconds ({@code 0} without an earliest; without a latest
 * the search's time, as Splunk's latest defaults to now, and the text {@code +Infinity} for All
 * time only), {@code info_search_time}, the search's time, and {@code info_sid}, its id (null for a
 * search run without one). The range is the plan's, handed to the operator by its search ({@link
 * SearchResources.Context#searchInfo}).
 */
final class AddInfoCommand implements CommandDefinition {
  static final List<String> FIELDS =
      List.of("info_min_time", "info_max_time", "info_search_time", "info_sid");

  @Override
  public String name() {
    return "addinfo";
  }

  @Override
  public String description() {
    return "Adds the search's time range, time and id to every result (info_min_time,"
        + " info_max_time, info_search_time, info_sid).";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of();
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound();
  }

  record Bound() implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of();
    }

    @Override
    public Set<String> producedFields() {
      return new LinkedHashSet<>(FIELDS);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      List<Object> values = values(context);
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          List<Cells.Column> columns = new ArrayList<>(FIELDS.size());
          for (Object value : values) {
            Cells.Column column = new Cells.Column();
            for (int p = 0; p < input.positionCount(); p++) {
              column.add(value);
            }
            columns.add(column);
          }
          return Cells.withColumns(factory, input, FIELDS, columns);
        }
      };
    }
  }

  /** The values of {@link #FIELDS} for the search running {@code context}. */
  static List<Object> values(OperatorContext context) {
    SearchInfo info =
        context instanceof SearchResources.Context search ? search.searchInfo() : SearchInfo.NONE;
    boolean allTime =
        info.earliestMicros() == Long.MIN_VALUE && info.latestMicros() == Long.MAX_VALUE;
    double searchTime = context.now().getEpochSecond() + context.now().getNano() / 1e9;
    Object latest; // Splunk: latest defaults to now; only All time ends at +Infinity
    if (info.latestMicros() != Long.MAX_VALUE) {
      latest = seconds(info.latestMicros());
    } else {
      latest = allTime ? "+Infinity" : searchTime;
    }
    return Arrays.asList(
        info.earliestMicros() == Long.MIN_VALUE ? 0.0 : seconds(info.earliestMicros()),
        latest,
        searchTime,
        info.sid().isEmpty() ? null : info.sid());
  }

  private static double seconds(long micros) {
    return micros / 1e6;
  }
}
