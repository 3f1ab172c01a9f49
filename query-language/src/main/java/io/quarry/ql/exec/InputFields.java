package io.quarry.ql.exec;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.Expression;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.WhereCommand;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The needed-field analysis of a pipeline's page stages: which fields the input of a run of
 * commands must carry for its output to carry what comes after, so a source loads only those (the
 * map side's {@code EventPages} fields, the time-ordered source's, an aggregation's input).
 */
public final class InputFields {
  private InputFields() {}

  /**
   * The fields the chain's input must carry for its output to carry {@code downstream}: walking
   * back from the end, a command's writes are no longer needed from before it and its reads are.
   * Besides {@link PageChain}'s commands, {@link PageReduce}'s own stages ({@code dedup}, {@code
   * sort}, {@code head}) are known here too.
   */
  public static Set<String> of(List<Command> commands, Collection<String> downstream) {
    Set<String> needed = new LinkedHashSet<>(downstream);
    boolean[] withoutRaw = EventTextCommands.withoutRaw(commands);
    for (int i = commands.size() - 1; i >= 0; i--) {
      Command command = commands.get(i);
      switch (command) {
        case EvalCommand eval -> {
          eval.assignments().forEach(a -> needed.remove(a.field()));
          eval.assignments().forEach(a -> ofExpression(a.expression(), needed));
        }
        case WhereCommand where -> ofExpression(where.condition(), needed);
        case BinCommand bin -> {
          needed.remove(bin.as());
          needed.add(bin.field());
        }
        // a position rex or lookup does not match keeps its own value of what they write
        case RexCommand rex -> needed.add(rex.field());
        case LookupCommand lookup -> lookup.keys().forEach(key -> needed.add(key.field()));
        case PluginCommand plugin when fieldWise(plugin) -> {} // each field needs only itself
        case PluginCommand plugin -> {
          needed.removeAll(plugin.bound().producedFields());
          needed.addAll(plugin.bound().requiredFields());
        }
        case io.quarry.ql.ast.DedupCommand dedup -> { // a page stage of PageReduce
          needed.addAll(dedup.fields());
          dedup.sortBy().forEach(key -> needed.add(key.field()));
        }
        case io.quarry.ql.ast.SortCommand sort -> // a page stage of PageReduce: reads its keys
            sort.keys().forEach(key -> needed.add(key.field()));
        case io.quarry.ql.ast.HeadCommand head -> {} // a page stage of PageReduce: reads nothing
        // join (PageReduce's HashJoinOperator) reads its fields; appendcols lays the subsearch's
        // columns over the input's, whose own values stay needed where they are
        case io.quarry.ql.ast.SubsearchCommand sub when sub.join() != null ->
            needed.addAll(sub.join().fields());
        case io.quarry.ql.ast.SubsearchCommand sub
            when sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.APPENDCOLS -> {}
        case io.quarry.ql.ast.ReorderCommand reorder -> {} // reverse, tail (PageReduce): the same
        // append (PageReduce): hands its input on and adds rows that carry their own fields
        case io.quarry.ql.ast.SubsearchCommand sub
            when sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.APPEND -> {}
        case io.quarry.ql.ast.EventStatsCommand e -> statsFields(e.stats(), needed); // PageReduce's
        case io.quarry.ql.ast.StreamStatsCommand s -> { // a page stage of PageReduce
          statsFields(s.stats(), needed);
          s.resetBefore().ifPresent(c -> ofExpression(c, needed));
          s.resetAfter().ifPresent(c -> ofExpression(c, needed));
          if (s.timeWindowMicros() > 0) {
            needed.add(TimeField.NAME);
          }
        }
        case io.quarry.ql.ast.TransactionCommand t -> TransactionOperator.inputFields(t, needed);
        default -> FieldStages.inputFields(command, needed);
      }
      // a bare word over a row without _raw asks its every field (FieldValueTerm): * — which a
      // table or fields of names before it makes those names, else the source's every field
      if (withoutRaw[i] && EventTextCommands.readsBareWords(command)) {
        needed.add("*");
      }
    }
    return needed;
  }

  /** Whether a plugin command works on each field in place though it reads every field. */
  static boolean fieldWise(PluginCommand plugin) {
    return plugin.bound() instanceof io.quarry.ql.command.FieldWise fields && fields.fieldWise();
  }

  /**
   * {@code eventstats}/{@code streamstats}: their results are written (not needed before them
   * without by-fields; with by-fields a row in no group keeps its own value, so a needed result
   * name stays needed), their by-fields and functions' fields read.
   */
  private static void statsFields(io.quarry.ql.ast.StatsCommand stats, Set<String> needed) {
    if (stats.groupBy().isEmpty()) {
      stats.aggregations().forEach(a -> needed.remove(a.outputName()));
    }
    needed.addAll(io.quarry.ql.engine.aggregation.RunningGroups.inputFields(stats));
  }

  /**
   * The fields an expression reads ({@code searchmatch()}: its search's, {@code _raw} for terms).
   */
  static void ofExpression(Expression expression, Set<String> into) {
    switch (expression) {
      case Expression.Literal literal -> {}
      case Expression.Field field -> into.add(field.name());
      case Expression.Unary unary -> ofExpression(unary.operand(), into);
      case Expression.Binary binary -> {
        ofExpression(binary.left(), into);
        ofExpression(binary.right(), into);
      }
      case Expression.Call call -> {
        if (call.function().equals("searchmatch")
            && call.arguments().size() == 1
            && call.arguments().get(0) instanceof Expression.Literal(String search)) {
          into.addAll(SearchMatch.fields(SearchMatch.parse(search)));
        }
        call.arguments().forEach(a -> ofExpression(a, into));
      }
    }
  }
}
