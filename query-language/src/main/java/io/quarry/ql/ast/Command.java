package io.quarry.ql.ast;

import io.quarry.ql.parser.Position;

/** One command of a pipeline. */
public sealed interface Command
    permits SearchCommand,
        StatsCommand,
        HeadCommand,
        SortCommand,
        TopCommand,
        ProjectCommand,
        RenameCommand,
        ReorderCommand,
        DedupCommand,
        EvalCommand,
        WhereCommand,
        RexCommand,
        BinCommand,
        TimechartCommand,
        ChartCommand,
        FieldSummaryCommand,
        LookupCommand,
        InputLookupCommand,
        OutputLookupCommand,
        EventStatsCommand,
        StreamStatsCommand,
        PluginCommand,
        HelpCommand,
        MakeResultsCommand,
        TransactionCommand,
        FormatCommand,
        ReturnCommand,
        SubsearchCommand,
        TstatsCommand,
        MetadataCommand,
        EventCountCommand,
        DbinspectCommand,
        MetricCommand {

  /** The command's name as the registry knows it. */
  String name();

  /** Where the command's name starts in the query. */
  Position position();
}
