package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.ast.SubsearchResult;
import io.quarry.ql.exec.SearchResources;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import io.quarry.ql.parser.Position;
import io.quarry.ql.plan.SubsearchRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * {@code map}'s operator ({@link MapCommand}): keeps the token values of the first {@code
 * maxSearches} results (counted as memory), passes none of its input on, and at the end runs one
 * search per kept result, emitting each one's pages in turn (their bytes reserved on this search's
 * account as they are handed on).
 */
final class MapOperator extends QueueOperator {
  private final MapTemplate template;
  private final Position position;
  private final long maxSearches;
  private final SubsearchRunner runner;
  private final OperatorContext context;
  private final BooleanSupplier stopped;
  private final List<Map<String, String>> kept = new ArrayList<>();
  private long results;

  MapOperator(
      MapTemplate template,
      Position position,
      long maxSearches,
      SubsearchRunner runner,
      OperatorContext context) {
    super(context.blockFactory(), "map");
    this.template = template;
    this.position = position;
    this.maxSearches = maxSearches;
    this.runner = runner;
    this.context = context;
    this.stopped =
        context instanceof SearchResources.Context search ? search.stopped() : context::isCancelled;
  }

  @Override
  protected void process(Page page) {
    for (int p = 0; p < page.positionCount(); p++) {
      results++;
      if (kept.size() < maxSearches) {
        Map<String, String> values = values(page, p);
        long bytes = 64;
        for (Map.Entry<String, String> value : values.entrySet()) {
          bytes += 48 + 2L * (value.getKey().length() + value.getValue().length());
        }
        reserve(bytes); // a throw leaves the page whole: QueueOperator releases it
        kept.add(values);
      }
    }
    factory.release(page);
  }

  /** The position's first value of each field a token names, as text; absent fields left out. */
  private Map<String, String> values(Page page, int position) {
    Map<String, String> values = new HashMap<>();
    for (String field : template.fields()) {
      int column = page.schema().indexOf(field);
      if (column < 0) {
        continue;
      }
      Block block = page.block(column);
      Object value = Values.valueOf(block, position);
      if (value == null) {
        continue;
      }
      if (block.dataType() == DataType.TIMESTAMP && value instanceof Long micros) {
        value = TimeField.secondsOf(micros); // Splunk's _time: epoch seconds
      }
      values.put(field, Values.toText(value));
    }
    return values;
  }

  @Override
  protected void onFinish() {
    if (results > maxSearches) {
      // Splunk's message, word for word
      context.warn(
          "The search result count ("
              + results
              + ") exceeds maximum ("
              + maxSearches
              + "), using max. To override it, set maxsearches appropriately.");
    }
    long serial = 0;
    for (Map<String, String> values : kept) {
      serial++;
      if (stopped.getAsBoolean()) {
        context.warn(
            "map ran "
                + (serial - 1)
                + " of its "
                + kept.size()
                + " searches: the search was stopped (time limit, finalized or cancelled)");
        break;
      }
      String search = template.substitute(values, serial);
      if (search == null) {
        context.warn(
            "map: result "
                + serial
                + " has no value for "
                + String.join(
                    ", ", template.missing(values).stream().map(f -> "$" + f + "$").toList())
                + "; its search was not run");
        continue;
      }
      run(search);
    }
    kept.clear();
    releaseReserved();
  }

  private void run(String search) {
    SubsearchResult result =
        runner.run(
            new Subsearch(
                new Query(search, List.of()),
                search,
                position.offset(),
                position.offset(),
                position),
            MapCommand.MAX_ROWS,
            Duration.ofSeconds(MapCommand.MAX_TIME_SECONDS),
            stopped);
    for (String message : result.messages()) {
      context.warn("map: " + message);
    }
    factory.reserve(result.bytes(), "map (the results of its searches)");
    for (Page page : result.pages()) {
      emit(page);
    }
  }
}
