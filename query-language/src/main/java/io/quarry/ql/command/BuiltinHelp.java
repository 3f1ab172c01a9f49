package io.quarry.ql.command;

import io.quarry.plugin.api.command.CommandKind;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@code | help}'s text for the built-in commands. */
final class BuiltinHelp {
  private BuiltinHelp() {}

  static Map<String, CommandHelp> all() {
    Map<String, CommandHelp> help = new TreeMap<>();
    CommandKind s = CommandKind.STREAMING;
    CommandKind t = CommandKind.TRANSFORMING;
    CommandKind c = CommandKind.CENTRALIZED;
    CommandKind g = CommandKind.GENERATING;
    add(
        help,
        "search",
        s,
        "search <expression>",
        "Keeps the events or rows that match terms and field comparisons.");
    add(
        help,
        "where",
        s,
        "where <eval-expression>",
        "Keeps the rows for which an eval expression is true.");
    add(help, "eval", s, "eval <field>=<expression> [, …]", "Computes fields from expressions.");
    add(
        help,
        "rex",
        s,
        "rex [field=<f>] [max_match=<n>] [mode=sed] \"<regex>\"",
        "Extracts fields with named regex groups, or edits a field with sed syntax.");
    add(help, "rename", s, "rename <field> AS <new> [, …]", "Renames fields; wildcards allowed.");
    add(help, "fields", s, "fields [+|-] <field>...", "Keeps or removes fields.");
    add(
        help,
        "bin",
        s,
        "bin [span=<span>] [bins=<n>] [minspan=<span>] [start=<n>] [end=<n>] <field> [AS <new>]",
        "Puts numeric or time values into buckets.");
    add(
        help,
        "bucket",
        s,
        "bucket … (the same as bin)",
        "Puts numeric or time values into buckets.");
    add(
        help,
        "lookup",
        s,
        "lookup <table> <field> [AS <f>] [OUTPUT|OUTPUTNEW <field>...]",
        "Adds fields from a lookup table.");
    add(
        help,
        "stats",
        t,
        "stats <function>(<field>) [AS <name>], … [BY <field>...]",
        "Aggregates rows: count dc sum avg min max median mode range stdev var values list first"
            + " last earliest latest percentiles; a * wildcard field (avg(*), sum(*_ms) AS *_total)"
            + " aggregates every matching field.");
    add(
        help,
        "top",
        t,
        "top [limit=<n>] [countfield=<f>] [percentfield=<f>] [showperc=<bool>] <field>... [BY <field>...]",
        "The most common values of fields, with counts and percentages.");
    add(help, "rare", t, "rare … (options as top)", "The least common values of fields.");
    add(
        help,
        "timechart",
        t,
        "timechart [span=<span>] [bins=<n>] [limit=<n>] [useother=<bool>] [usenull=<bool>]"
            + " [otherstr=<s>] [nullstr=<s>] [sep=<s>] [format=<s>] [cont=<bool>] <function>(<field>)"
            + " [BY <field> [span=<span>|bins=<n>] [where <function> in top<n>|bottom<n>"
            + " | where <function> > <n>]]",
        "Aggregates over time buckets, one column per series.");
    add(
        help,
        "chart",
        t,
        "chart [limit=<n>] [useother=<bool>] [usenull=<bool>] [otherstr=<s>] [nullstr=<s>]"
            + " [sep=<s>] [format=<s>] [cont=<bool>] <function>(<field>) OVER <field>"
            + " [span=<span>|bins=<n>] [BY <field> [span=<span>|bins=<n>]"
            + " [where <function> in top<n>|bottom<n>"
            + " | where <function> > <n>]]",
        "Aggregates over one field, one column per value of another.");
    add(help, "head", c, "head [<n>]", "The first n rows (10 by default).");
    add(help, "tail", c, "tail [<n>]", "The last n rows, last first.");
    add(help, "reverse", c, "reverse", "Reverses the order of the rows.");
    add(
        help,
        "sort",
        c,
        "sort [<limit>] [-|+]<field>..., num(<f>), str(<f>)",
        "Orders rows by fields.");
    add(
        help,
        "dedup",
        c,
        "dedup [<n>] <field>... [keepempty=<bool>] [consecutive=<bool>] [sortby …]",
        "Keeps the first rows of each combination of values.");
    add(
        help,
        "transaction",
        c,
        "transaction <field>... [maxspan=<span>] [maxpause=<span>] [maxevents=<n>]"
            + " [startswith=<search>] [endswith=<search>] [keepevicted=<bool>]"
            + " [mvlist=<bool>|\"<field>,...\"] [connected=<bool>] [unifyends=<bool>]"
            + " [keeporphans=<bool>]",
        "Groups events sharing the fields' values into one result per transaction, with duration"
            + " and eventcount.");
    add(
        help,
        "eventstats",
        c,
        "eventstats <function>(<field>) … [BY <field>...]",
        "Adds aggregates over all rows to every row.");
    add(
        help,
        "streamstats",
        c,
        "streamstats [current=<bool>] [window=<n>] [global=<bool>] <function>(<field>) … [BY …]",
        "Adds running aggregates to each row.");
    add(help, "table", c, "table <field>...", "Keeps fields, in that order.");
    add(
        help,
        "fieldsummary",
        c,
        "fieldsummary [maxvals=<n>]",
        "Per field: count, distinct count, type, top values.");
    add(
        help,
        "format",
        c,
        "format [mvsep=<s>] [maxresults=<n>] [\"<row prefix>\" \"<column prefix>\" \"<column"
            + " separator>\" \"<column end>\" \"<row separator>\" \"<row end>\"]"
            + " [emptystr=<s>]",
        "Makes the rows one search expression, ( ( a=\"1\" AND b=\"2\" ) OR ( … ) ), in a field"
            + " named search; a subsearch's rows become such an expression.");
    add(
        help,
        "return",
        c,
        "return [<count>] [<alias>=<field>…] [<field>…] [$<field>…]",
        "Passes values up from a subsearch: the first count rows (1) as field=\"value\" terms,"
            + " rows joined by OR; $field gives the value alone.");
    add(
        help,
        "append",
        c,
        "append [maxout=<n>] [maxtime=<s>] [ <subsearch> ]",
        "Adds the subsearch's rows (at most maxout, 50,000; maxtime 60 s) after the results.");
    add(
        help,
        "appendcols",
        c,
        "appendcols [override=<bool>] [maxout=<n>] [maxtime=<s>] [ <subsearch> ]",
        "Adds the subsearch's fields to the results row by row: its first row to the first"
            + " result, and so on.");
    add(
        help,
        "join",
        c,
        "join [type=inner|left|outer] [max=<n>] [overwrite=<bool>] [<field>, …] [ <subsearch> ]",
        "Adds the fields of the subsearch rows (at most 50,000) whose join fields equal the"
            + " row's; inner drops rows without a match, left/outer keeps them; max (1) rows per"
            + " row, 0 for all.");
    add(help, "outputlookup", c, "outputlookup <table>", "Writes the rows to a lookup table.");
    add(
        help,
        "inputlookup",
        g,
        "| inputlookup <table>",
        "The rows of a lookup table instead of events.");
    add(
        help,
        "makeresults",
        g,
        "| makeresults [count=<n>] [annotate=<bool>] | makeresults format=csv|json data=<text>",
        "Rows with only _time (now), to try expressions without data; or rows from inline CSV or"
            + " JSON.");
    add(
        help,
        "multisearch",
        g,
        "| multisearch [search …] [search …] …",
        "The events of several streaming searches, merged newest first.");
    add(
        help,
        "union",
        c,
        "union [maxout=<n>] [maxtime=<s>] [search …] …",
        "The results of several searches together: first, merged by time when they only stream;"
            + " later in a pipeline, appended to the results.");
    add(
        help,
        "tstats",
        g,
        "| tstats <function>(<field>) [AS <name>] … [where <search>] [by <field>… [span=<span>]]",
        "Statistics over what the index holds (default and index-time fields, _time), reading no"
            + " event's text.");
    add(
        help,
        "mstats",
        g,
        "| mstats [prestats=<bool>] [append=<bool>] <function>(<metric>) [AS <name>] … [where"
            + " index=<metric index> <search>] [by <dimension>…] [span=<span>]",
        "Statistics over the data points of metric indexes (count sum avg min max range median"
            + " perc<N> var varp stdev stdevp earliest latest rate rate_avg rate_sum); a metric may"
            + " be a pattern such as cpu.* (one column per metric). With prestats=true"
            + " append=true, later in a pipeline, its points follow the rows before it.");
    add(
        help,
        "mcatalog",
        g,
        "| mcatalog values(<field>) [AS <name>] … [where index=<metric index> <search>] [by"
            + " <field>…]",
        "The metric names and dimension values metric indexes hold, from their series"
            + " dictionaries.");
    add(
        help,
        "mpreview",
        g,
        "| mpreview [target_per_timeseries=<n>] [filter=\"<search>\"] index=<metric index>"
            + " [<search>]",
        "Raw data points of metric indexes as rows (_time, metric_name, _value, dimensions), at"
            + " most n per series (5 by default, 0 for all).");
    add(
        help,
        "metadata",
        g,
        "| metadata type=hosts|sources|sourcetypes [index=<name>]…",
        "Each host, source or sourcetype of the indexes with firstTime, lastTime, recentTime and"
            + " totalCount, from the index alone.");
    add(
        help,
        "eventcount",
        g,
        "| eventcount [index=<name>]… [summarize=<bool>]",
        "How many events the indexes hold (summarize=false: per index).");
    add(
        help,
        "dbinspect",
        g,
        "| dbinspect [index=<name>]…",
        "One row per bucket of the indexes: bucketId, id, index, state, eventCount, startEpoch,"
            + " endEpoch, sizeOnDiskMB, rawSize, path.");
    add(
        help,
        "savedsearch",
        g,
        "| savedsearch <name> [<key>=<value>]… [nosubstitution=<bool>]",
        "Runs a saved search: its text, with each $key$ replaced by its value, in place of the"
            + " command (expanded before parsing, like a macro).");
    add(
        help,
        "help",
        g,
        "| help [<command>]",
        "Every command, or one command's syntax and arguments.");
    return help;
  }

  private static void add(
      Map<String, CommandHelp> help, String name, CommandKind kind, String syntax, String text) {
    help.put(name, new CommandHelp(name, kind, CommandHelp.BUILT_IN, syntax, text, List.of()));
  }
}
