package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The built-in commands' page stages, by the shared contract. */
class BuiltinOperatorsTest extends OperatorTestCase {
  private static final long T0 =
      java.time.Instant.parse("2026-01-07T00:00:00Z").toEpochMilli() * 1000;

  @Override
  protected List<String> commands() {
    List<String> commands = new ArrayList<>(holdingCommands());
    commands.addAll(
        List.of(
            "eval m=n*2, s=g.\"-\".n",
            "where n > 50",
            "rex field=msg \"user=(?<user>\\w+)\"",
            "bin n span=10",
            "head 7",
            "streamstats count, sum(n) by g",
            "rename g AS group",
            "table g, n",
            "fields - x",
            // plugin operators driven as page stages
            "format maxresults=50",
            "return 3 g n",
            "streamstats window=3 avg(n) AS avg3 by g",
            "accum n",
            "delta n AS dn",
            "autoregress n p=2",
            "filldown n",
            "filldown n x",
            "fillnull value=0 n",
            "fillnull value=0 n x",
            "fillnull value=0",
            "trendline sma3(n) AS t",
            "trendline sma3(n) AS t wma2(x) AS w ema4(n) AS e",
            "autoregress n p=1-3",
            "addtotals n x",
            "addtotals col=t labelfield=g label=all n x",
            "rangemap field=n low=0-30 high=31-100",
            "strcat g \"/\" user gu",
            "replace g0 WITH zero IN g",
            "convert num(x)",
            "makemv delim=\"=\" msg",
            "nomv msg",
            "makemv delim=\" \" msg | mvexpand msg",
            "spath",
            "search g=g1 OR n<10",
            "untable g user n",
            "lookup users.csv user OUTPUT team",
            "lookup users.csv user OUTPUTNEW team AS g",
            // the second lookup's index may not fit once the first one's does
            "lookup users.csv user OUTPUT team | lookup users.csv user OUTPUT team AS t2",
            "addinfo",
            "extract",
            "kv pairdelim=\" \" kvdelim=\"=\" mv_add=t",
            "xmlkv",
            "uniq",
            "table g | uniq"));
    return commands;
  }

  /**
   * The streaming built-ins whose output columns are built from the input page, mvexpand, and
   * session 33's everyday commands.
   */
  @Override
  protected List<String> sweptCommands() {
    return List.of(
        "accum n",
        "delta n AS dn",
        "filldown n x",
        "fillnull value=0 n x",
        "fillnull value=0",
        "trendline sma3(n) AS t wma2(x) AS w ema4(n) AS e",
        "autoregress n p=1-3",
        "addtotals col=t labelfield=g label=all n x",
        "makemv delim=\" \" msg | mvexpand msg",
        "addinfo",
        "extract",
        "kv pairdelim=\" \" kvdelim=\"=\" mv_add=t",
        "xmlkv",
        "uniq",
        "table g | uniq",
        "makecontinuous _time span=1h",
        "makecontinuous n span=10");
  }

  @Override
  protected List<String> holdingCommands() {
    return List.of(
        "stats count, dc(n), avg(x), perc50(n), values(user) by g",
        "stats count, sum(x), min(n), range(n) by g",
        "top limit=3 g",
        "sort - n, g",
        "dedup g",
        "tail 5",
        "reverse",
        "bin n bins=5",
        "timechart span=1h count by g",
        "eventstats avg(n) AS mean by g",
        "eventstats count",
        "transaction g maxevents=4",
        "fieldsummary maxvals=3",
        "dedup g sortby - n",
        "sort 5 - n, g",
        "chart count over g by user",
        "rare user",
        "mvcombine user",
        "xyseries g user n",
        "outputlookup out.csv",
        "makecontinuous _time span=1h",
        "makecontinuous n span=10");
  }

  @Override
  protected List<Map<String, List<Object>>> input() {
    List<TestRow> rows = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      long time = T0 + (400 - i) * 60_000_000L; // newest first, as scans deliver
      String g = "g" + (i * 7 % 5);
      String msg = "user=u" + (i % 9) + " action=view";
      rows.add(
          i % 11 == 0 // some rows lack n
              ? TestRow.of(
                  msg, "_time", time, "g", g, "x", i / 4.0, "msg", msg, "user", "u" + i % 9)
              : TestRow.of(
                  msg,
                  "_time",
                  time,
                  "g",
                  g,
                  "n",
                  (long) (i * 37 % 101),
                  "x",
                  i / 4.0,
                  "msg",
                  msg,
                  "user",
                  "u" + i % 9));
    }
    return PipelineTest.cells(rows);
  }
}
