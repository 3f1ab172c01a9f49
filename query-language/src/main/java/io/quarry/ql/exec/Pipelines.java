package io.quarry.ql.exec;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.ReorderCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.ast.WhereCommand;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/** Builds the chain of row operators for the commands that follow the first search. */
public final class Pipelines {
  private Pipelines() {}

  /**
   * Returns the head of the chain; rows pushed into it flow through every command to {@code end}.
   */
  public static RowSink build(List<Command> commands, RowSink end) {
    return build(commands, end, new Evaluator(Instant.now(), ZoneOffset.UTC));
  }

  /** As above; {@code eval} and {@code where} use {@code evaluator} (the search's now and zone). */
  public static RowSink build(List<Command> commands, RowSink end, Evaluator evaluator) {
    evaluator.rowStages().enter(names(commands));
    RowSink sink = end;
    for (int i = commands.size() - 1; i >= 0; i--) {
      sink = create(commands.get(i), sink, evaluator);
    }
    return sink;
  }

  /**
   * As above, each operator wrapped in a probe of {@code stats}: {@code commands} are stages {@code
   * firstStage}, {@code firstStage + 1}, … of the whole pipeline.
   */
  public static RowSink build(
      List<Command> commands, RowSink end, Evaluator evaluator, StageStats stats, int firstStage) {
    evaluator.rowStages().enter(names(commands));
    RowSink sink = end;
    for (int i = commands.size() - 1; i >= 0; i--) {
      sink = stats.probe(firstStage + i, create(commands.get(i), sink, evaluator));
    }
    return sink;
  }

  /**
   * The operator of one command, feeding {@code downstream}; the command is entered in the search's
   * {@link RowStages} (a strict one refuses it).
   */
  public static RowSink operator(Command command, RowSink downstream, Evaluator evaluator) {
    evaluator.rowStages().enter(command.name());
    return create(command, downstream, evaluator);
  }

  private static List<String> names(List<Command> commands) {
    return commands.stream().map(Command::name).toList();
  }

  private static RowSink create(Command command, RowSink downstream, Evaluator evaluator) {
    return switch (command) {
      case SearchCommand search ->
          search
              .expression()
              .<RowSink>map(e -> new FilterOperator(RowPredicates.compile(e), downstream))
              .orElse(downstream);
      case StatsCommand stats ->
          io.quarry.ql.engine.aggregation.WildcardFields.hasWildcards(stats)
              ? new WildcardStatsOperator(stats, downstream, evaluator.memory(command.name()))
              : new StatsOperator(stats, downstream, evaluator.memory(command.name()));
      case io.quarry.ql.ast.EventStatsCommand eventstats ->
          new EventStatsOperator(eventstats, downstream, evaluator.memory("eventstats"));
      case io.quarry.ql.ast.StreamStatsCommand streamstats ->
          new StreamStatsOperator(
              streamstats, downstream, evaluator, evaluator.memory("streamstats"));
      case HeadCommand head -> new HeadOperator(head.limit(), downstream);
      case EvalCommand eval -> new EvalOperator(eval, evaluator, downstream);
      case RexCommand rex -> new RexOperator(rex, downstream, evaluator.stopped());
      case BinCommand bin ->
          new BinOperator(bin, evaluator.zone(), downstream, evaluator.memory("bin"));
      case TimechartCommand timechart ->
          new TimechartOperator(
              timechart, evaluator.zone(), downstream, evaluator.memory("timechart"));
      case ChartCommand chart ->
          TimechartOperator.chart(chart, evaluator.zone(), downstream, evaluator.memory("chart"));
      case WhereCommand where ->
          new FilterOperator(row -> evaluator.test(where.condition(), row), downstream);
      case SortCommand sort ->
          new SortOperator(sort.keys(), sort.limit(), downstream, evaluator.memory("sort"));
      case io.quarry.ql.ast.FieldSummaryCommand summary ->
          new FieldSummaryOperator(summary, downstream, evaluator.memory("fieldsummary"));
      case io.quarry.ql.ast.InputLookupCommand generating ->
          throw new IllegalArgumentException(
              "inputlookup generates rows: it can only be the first command (| inputlookup t)");
      case io.quarry.ql.ast.OutputLookupCommand output ->
          new OutputLookupOperator(
              output, evaluator.lookupWriter(), downstream, evaluator.memory("outputlookup"));
      case io.quarry.ql.ast.LookupCommand lookup -> {
        LookupTable table = evaluator.lookup(lookup.table());
        if (table == null) {
          throw new IllegalArgumentException(
              "lookup table '" + lookup.table() + "' does not exist");
        }
        yield new LookupOperator(lookup, table, downstream, evaluator.memory("lookup"));
      }
      case io.quarry.ql.ast.HelpCommand help ->
          throw new IllegalArgumentException(
              "help generates rows: it can only be the first command");
      case io.quarry.ql.ast.MakeResultsCommand make ->
          throw new IllegalArgumentException(
              "makeresults generates rows: it can only be the first command");
      case io.quarry.ql.ast.MetadataCommand metadata ->
          throw new IllegalArgumentException(
              "metadata generates rows: it can only be the first command");
      case io.quarry.ql.ast.EventCountCommand count ->
          throw new IllegalArgumentException(
              "eventcount generates rows: it can only be the first command");
      case io.quarry.ql.ast.DbinspectCommand dbinspect ->
          throw new IllegalArgumentException(
              "dbinspect generates rows: it can only be the first command");
      case io.quarry.ql.ast.MstatsCommand mstats when mstats.append() ->
          new MstatsAppendOperator(mstats, evaluator, downstream);
      case io.quarry.ql.ast.MetricCommand metric ->
          throw new IllegalArgumentException(
              metric.name() + " generates rows: it can only be the first command (| mstats …)");
      case io.quarry.ql.ast.TstatsCommand tstats ->
          throw new IllegalArgumentException(
              "tstats generates rows: it can only be the first command (| tstats count …)");
      case io.quarry.ql.ast.PluginCommand plugin ->
          switch (plugin.kind()) {
            case STREAMING, CENTRALIZED -> PluginOperators.streaming(plugin, evaluator, downstream);
            case TRANSFORMING -> PluginOperators.transforming(plugin, evaluator, downstream);
            case GENERATING ->
                throw new IllegalArgumentException(
                    plugin.describe() + " generates rows: it can only be the first command");
          };
      case io.quarry.ql.ast.FormatCommand format ->
          PluginOperators.streaming(PageCommands.of(format), evaluator, downstream);
      case io.quarry.ql.ast.ReturnCommand ret ->
          PluginOperators.streaming(PageCommands.of(ret), evaluator, downstream);
      case io.quarry.ql.ast.SubsearchCommand sub ->
          PluginOperators.streaming(PageCommands.of(sub), evaluator, downstream);
      case io.quarry.ql.ast.TransactionCommand transaction ->
          new TransactionOperator(
              transaction, downstream, evaluator.memory("transaction"), evaluator);
      case TopCommand top -> new TopOperator(top, downstream, evaluator.memory(top.name()));
      case ProjectCommand project -> new ProjectOperator(project, downstream);
      case RenameCommand rename -> new RenameOperator(rename, downstream);
      case ReorderCommand reorder ->
          new ReorderOperator(
              reorder.tail() ? reorder.limit() : Long.MAX_VALUE,
              downstream,
              evaluator.memory(command.name()));
      case DedupCommand dedup ->
          new DedupOperator(
              dedup,
              dedup.sortBy().isEmpty()
                  ? downstream
                  : new SortOperator(
                      dedup.sortBy(), Long.MAX_VALUE, downstream, evaluator.memory("dedup")),
              evaluator.memory("dedup"));
    };
  }
}
