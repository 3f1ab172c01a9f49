package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stats} on the page engine reading events straight into pages ({@link EventPages}: index
 * -time fields from doc values, key=value pairs from the journal's bytes) answers what the row
 * engine answers, on events that take every extraction path: ASCII and not, JSON objects (JSON wins
 * over key=value), a key twice (a multivalue), a quoted value, no value, and a non-exact index
 * query whose candidates are checked event by event. Expected answers by hand for some searches;
 * every search answers the same in pages of 1,024 rows, of one and of three ({@link
 * #samePagedAnyWay}: on seven events a page of one puts a boundary between every two), with every
 * row operator refused.
 */
class PageEngineSearchTest {
  private static final String PASSWORD = "page-engine-pw";

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    // the event layout: the explains name its term-index and doc-values counts (blocks answer
    // the same searches, SplSpecTest's engine=blocks column)
    server =
        TestServers.start(
            dataDirectory, PASSWORD, settings -> settings.put("storage.format", "events"));
    TestServers.loadRaw(
        server,
        "2026-01-01 00:00:01 GET /a?sid=s1&x=1 user=ann took=10\n"
            + "2026-01-01 00:00:02 GET /a?sid=s1&x=2 user=bob took=12.5\n"
            + "2026-01-01 00:00:04 GET /b?sid=s2 user=\"Zoë Smith\" took=n/a\n"
            + "2026-01-01 00:00:05 GET /b sid=s2 sid=s3 user=ann\n"
            + "2026-01-01 00:00:09 GET /c no pairs at all\n"
            + "{\"sid\": \"json1\", \"user\": \"cat\", \"took\": 3, \"msg\": \"sid=kv1\"}\n"
            + "2026-01-01 00:00:11 POST /d?sid=s1 user=dan took=7\n");
    HttpResponse<String> uploaded =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(server.url() + "/api/v1/lookups/people.csv"))
                    .header("Authorization", TestServers.basic(PASSWORD))
                    .PUT(
                        java.net.http.HttpRequest.BodyPublishers.ofString(
                            "user,team,level\nann,red,1\nann,blue,\nbob,red,2\ncat,,3\n"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(uploaded.statusCode()).as(uploaded.body()).isLessThan(300);
  }

  /**
   * The row-local commands with page stages ({@code rex} anywhere, {@code lookup}, the built-in
   * page operators of every field or centralized after an aggregation or a generator, an
   * aggregation after a generator or a time-ordered {@code dedup}/{@code head}) run with every row
   * operator refused ({@code pages-only}) and answer the same paged any way.
   */
  @Test
  void rowLocalCommandsRunOnPagesOnly() throws Exception {
    for (String query :
        List.of(
            "* | rex field=sid \"(?<n>\\d)\" | stats count by n",
            "* | eval s=sid | rex field=s mode=sed \"s/s/S/g\" | stats count by s",
            "* | rex \"user=(?<u>\\w+)\" | rex field=u \"^(?<initial>.)\" | table u, initial, sid",
            "* | lookup people.csv user | stats count by team, level",
            "* | lookup people.csv user OUTPUT level AS took | stats count by took",
            "* | eval team=\"given\" | lookup people.csv user OUTPUTNEW team | table user, team",
            "* | lookup people.csv user AS sid OUTPUT team | table sid, team",
            "* | stats count, max(took) AS m by user | lookup people.csv user | fillnull value=none",
            "* | stats sum(took) AS t, count by user | foreach t count [eval <<FIELD>>=<<FIELD>>*2]",
            "* | stats sum(took) AS t, count by user | addtotals",
            "* | stats count, max(took) AS m by sid | convert auto(*) | replace s* WITH S* IN sid",
            "| makeresults count=3 | eval s=\"a1b22\" | rex field=s max_match=0 \"(?<d>\\d+)\""
                + " | table d",
            "| makeresults count=4 | eval x=2 | stats sum(x) AS s, count",
            "* | dedup user | stats count, values(sid) AS sids",
            "* | head 3 | stats count by user",
            "* | rename us* AS who* | table who, sid",
            // built-ins that read every field but work on each in place: the source loads what
            // the commands after them need
            "* | convert auto(*) | stats sum(took) AS t by user",
            "* | replace s* WITH S* | stats count by sid",
            "* | convert num(*) | table user, took, sid",
            // the built-in page commands format, return, append driven directly
            "* | table sid, user | format",
            "* | eval u=user | return 2 u",
            "GET | sort took | return $sid",
            "sid=s1 | table user | append [search sid=s2 | table user, took]",
            // a plugin's generating command (here built-in ones) driven as pages
            "| makeresults format=csv data=\"a,b\\n1,x\\n2,y\\n3,x\" | eval c=a*2"
                + " | stats sum(c) AS s by b",
            "| gentimes start=04/11/2021 end=04/14/2021 | table starttime, endtime, starthuman",
            "* | rename s* AS u* | table uid, user, took",
            // a search comparing a field named with a wildcard: that name literally, no field
            "* | search us*=ann OR took>9 | table user, took",
            "| makeresults count=3 | eval u=1 | search u*=1 OR u=1 | table u",
            "| makeresults count=2 | eval u=1 | search NOT u*=1 | stats count",
            "* | stats count by user | search NOT us*=ann",
            // a rename naming a field twice: a name renamed away is read as it came, as on rows
            "* | stats count by user, sid | rename user AS u, user AS v",
            "* | stats count by user, sid | rename user AS sid, sid AS s2",
            "* | stats count, max(took) AS m by sid | rename *id AS *_id, m AS most")) {
      samePagedAnyWay(query);
    }
  }

  /**
   * The commands that read every field of an event ({@code fillnull}, {@code transpose}, {@code
   * format}, a wildcard {@code table}/{@code fields}, a subsearch's events) run with every row
   * operator refused over event pages that carry every search-time field ({@link EventListing}'s
   * every-field mode), and the plugin commands whose input the row adapter would batch ({@code
   * untable} after {@code xyseries}, {@code filldown} or {@code transpose} after {@code
   * streamstats}, {@code foreach} after {@code foreach}) over the stream re-paged as those batches;
   * each answers the same paged any way, on events whose fields differ from event to event.
   */
  @Test
  void everyFieldCommandsRunOnPagesOnlySamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "* | fillnull value=X | table user, took, sid, msg, x",
            "* | where took > 5 | fillnull value=0 | table _time, sid, x, took",
            "* | sort took | fillnull value=none | stats count by x",
            "GET | dedup user | fillnull value=none | table user, took, x",
            "* | table s*, u*",
            "* | head 2 | table s*, t*",
            "* | fields *",
            "* | eval z=1 | fields u*, z",
            "sid=s1 | append [search sid=s2] | table user, took, sid",
            "sid=s1 | append [search \"no pairs\"] | stats count, sum(took) AS t",
            "POST | append [search sid=s2] | sort _time | table _time, user",
            "| makeresults count=3 | streamstats count AS n | eval y=if(n==2, \"b\", null())"
                + " | filldown | fields - _time",
            "| makeresults count=4 | streamstats count AS n | table n | transpose 0",
            "* | stats count by user, sid | xyseries user sid count | untable user sid n",
            // wildcard aggregations (WildcardAggregation) over every field of the events
            "* | stats avg(*)",
            "* | stats sum(*) AS total_*, count by user",
            "* | fields took, x, sid | stats max(*) AS most_*, dc(sid) AS d by sid",
            "* | head 4 | stats min(t*), values(u*)",
            "| makeresults count=3 | streamstats count AS n | eval a_ms=n*10, b_ms=if(n==2, 5,"
                + " null()) | stats max(*_ms) AS *_max, avg(*_ms) by n",
            "| makeresults | eval t=0, nums=\"[1,2.5]\" | foreach mode=json_array nums"
                + " [eval t=t+<<ITEM>>] | foreach mode=json_array nums [eval t=t*<<ITEM>>]"
                + " | fields - _time")) {
      samePagedAnyWay(query);
    }
    // format writes each row's fields in its page's column order, which follows the rows the page
    // holds: every event's values, wherever the pages part
    String formatted = search("* | format", 1);
    assertThat(formatted)
        .contains("sid=\\\"json1\\\" AND user=\\\"cat\\\"")
        .contains("sid=\\\"s1\\\" AND user=\\\"dan\\\" AND took=\\\"7\\\"")
        .contains("( sid=\\\"s2\\\" OR sid=\\\"s3\\\" ) AND user=\\\"ann\\\"")
        .contains("x=\\\"2\\\"");
    // where nothing fixes the columns after such a plugin command (its
    // output rows list an event's fields unextracted, plus the columns the command replaced)
    for (String query : List.of("* | fillnull value=X", "* | where took > 5 | fillnull value=0")) {
      samePagedAnyWay(query);
    }
  }

  /**
   * An event listing followed by commands that set or remove fields with nothing after them that
   * fixes the columns ({@link ListedFields}): each row is the event with the fields eval, rex,
   * lookup and rename set laid over it, on events whose search-time fields differ (JSON, key=value,
   * a multivalue, none), answered with every row operator refused, the same paged any way.
   */
  @Test
  void listingWithEvalRunsOnPagesOnlySamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "* | eval t2=took*2",
            "* | eval user=if(user==\"ann\", null(), upper(user)), k=len(_raw)",
            "GET | eval sid=null(), n=1 | where took > 5",
            "* | fields - user, took | eval took=sid",
            "* | eval m=if(took > 10, took, \"small\") | sort - m | head 4",
            "* | eval x=coalesce(sid, \"none\") | dedup x | fields - x",
            "* | rex \"user=(?<u>\\w+)\"",
            "* | rex \"(?<verb>GET|POST) (?<path>[^ ?]+)\\??(?<query>\\S*)\" | eval t=took",
            "* | rex \"took=(?<took>\\d+)\" | rex field=user mode=sed \"s/a/A/g\"",
            // lookup: its outputs laid over the rows whose key matched (an empty value: none)
            "* | lookup people.csv user OUTPUT team, level",
            "* | lookup people.csv user OUTPUT level AS sid | where took > 1",
            "* | lookup people.csv user AS sid OUTPUT team | head 3 | fields - team",
            "* | eval user=if(user==\"bob\", \"cat\", user) | lookup people.csv user OUTPUT team",
            // OUTPUTNEW (only the outputs a row has no value of, search-time ones included) and a
            // lookup without OUTPUT (every column but the key)
            "* | lookup people.csv user OUTPUTNEW team",
            "* | lookup people.csv user OUTPUTNEW level AS took, team",
            "* | lookup people.csv user | where isnotnull(level)",
            // rename: moved where the old name has a value, replacing the new name's
            "* | rename took AS ms",
            "* | rename sid AS user, took AS t | sort t",
            "* | rename msg AS note | where took > 2",
            // a rex or lookup output a later command reads (the event's own where not set)
            "* | rex \"took=(?<took>\\d)\" | where took > 5",
            "* | lookup people.csv user OUTPUT team | eval t2=team.\"!\"",
            // a field two commands set, a default field changed
            "* | rex \"user=(?<user>\\w)\" | eval user=if(user==\"a\", null(), user)",
            "* | eval t=if(took > 10, null(), 1), k=2 | eval t=3",
            "* | eval host=lower(host) | rename source AS src | fields - index",
            "* | eval _raw=upper(_raw) | rename sourcetype AS st | where took > 1",
            "* | bin took span=5 AS slot | bin _time span=1m")) {
      samePagedAnyWay(query);
    }
  }

  /**
   * Searches the census under {@code pages-only} found on rows, now on pages and answering the same
   * paged any way: {@code transaction} whose {@code startswith}/{@code endswith} has bare words or
   * phrases or calls {@code searchmatch()} (matched in each event's {@code _raw}, which the source
   * then loads) and {@code transaction} with nothing after it that fixes the columns (over every
   * field of the events), {@code table | outputlookup | stats} in time-ordered mode (the table it
   * writes read back), and the UI's fields sidebar ({@code <search> | head N | fieldsummary}).
   */
  @Test
  void censusSearchesRunOnPagesOnlySamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "* | transaction user startswith=\"GET\" endswith=\"POST\""
                + " | table user, eventcount, duration",
            "* | transaction sid startswith=\"\\\"GET /b\\\"\" keepevicted=true"
                + " | table _time, sid, user, eventcount, closed_txn",
            "* | transaction user endswith=eval(searchmatch(\"took\") AND took>11)"
                + " | stats count by eventcount",
            "GET | transaction startswith=\"NOT pairs\" maxevents=2 | table user, sid, eventcount",
            // transaction with nothing after it that fixes the columns: its results carry every
            // field of their events (the every-field listing)
            "* | transaction user",
            "* | transaction sid maxspan=5s keepevicted=true",
            "GET | transaction user startswith=\"GET\" mvlist=true",
            "* | where took>1 | transaction user maxevents=2",
            "* | eval k=upper(user) | transaction k keeporphans=true",
            // a search of bare words over events: terms against each event's _raw (EventText)
            "* | search GET | table user, sid",
            "* | where took>1 | search \"GET /a\" OR user=dan | table _time, user",
            "* | search NOT pairs",
            "* | eval k=1 | search ann | stats count by k",
            "* | search GET OR user=cat | stats count by user",
            "* | search sid=s* POST | dedup user",
            "* | head 10000 | fieldsummary maxvals=10",
            "GET | head 3 | fieldsummary")) {
      samePagedAnyWay(query);
    }
    String write = "* | table user, took | outputlookup written.csv | stats count";
    String read = "| inputlookup written.csv";
    assertThat(samePagedAnyWay(write)).as(write).contains("\"count\":\"7\"");
    assertThat(samePagedAnyWay(read))
        .as(write)
        .contains("{\"user\":\"bob\",\"took\":\"12.5\"}")
        .contains("Zo");
  }

  @Test
  void countsBySearchTimeKeysAsComputedByHand() throws Exception {
    // s1: events 1, 2, 7; s2: events 3 and 4 (4 has sid twice: s2 and s3); json1 from the JSON
    // event, whose key=value text sid=kv1 loses to JSON
    String body = search("* | stats count by sid", 1024);
    assertThat(body)
        .contains("{\"sid\":\"json1\",\"count\":\"1\"}")
        .contains("{\"sid\":\"s1\",\"count\":\"3\"}")
        .contains("{\"sid\":\"s2\",\"count\":\"2\"}")
        .contains("{\"sid\":\"s3\",\"count\":\"1\"}")
        .doesNotContain("kv1");
  }

  @Test
  void answersSamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "* | stats count, dc(user) AS users, values(user) AS names, sum(took) AS total,"
                + " avg(took) AS mean, range(_time) AS span by sid",
            "* | stats count by user",
            "* | stats min(_time) AS first, max(took) AS most, count(took) AS timed by user, sid",
            "GET | stats count, values(sid) AS sids by host",
            "sid=s1 | stats count by user",
            "took>5 | stats sum(took) AS total by sid",
            "* | stats dc(sid) AS sessions, count",
            "* | stats count, sum(nosuch) AS none by sid",
            "* | stats count by sid | where count > 1 | sort - count",
            "* | rex \"user=(?<u>\\w+)\" | stats count by u",
            "* | rex \"took=(?<user>\\d+)\" | stats count by user",
            "* | rex \"GET (?<p>/\\w)\" | rex \"POST (?<p>/\\w+)\" | stats count by p, sid",
            "* | rex max_match=2 \"(?<kv>\\w+)=\" | stats count by kv",
            "* | rex field=sid \"(?<letter>[a-z]+)\" | stats count by letter",
            "* | rex \"(?<a>x)=(?<b>\\d)|(?<a>u)ser\" | stats count by a, b",
            "* | eval t=took*2, sid=upper(sid) | where isnotnull(t) | stats sum(t) AS s by sid",
            "* | rex \"user=(?<u>\\w+)\" | eval u=coalesce(u, \"none\") | stats count by u",
            "* | where took > 5 OR user=\"ann\" | eval _time=_time + 3600 | stats min(_time) AS"
                + " first, count by user",
            "* | eval m=split(sid, \"1\") | stats count by m",
            "* | where like(sid, \"s%\") | stats dc(user) AS users",
            // built-in page commands before stats: driven directly on the page engine
            "* | fillnull value=none sid | stats count by sid",
            "* | convert num(took) AS t | stats sum(t) AS s, count(t) AS n by user",
            "* | eval m=split(sid, \"1\") | mvexpand m | stats count by m",
            "* | regex _raw=\"GET\" | stats count by sid",
            "* | bin _time span=2s | stats count, values(sid) AS sids by _time",
            "* | bin took span=5 | stats count by took",
            "* | bin _time span=1d AS day | bin took span=10 AS t | stats count by day, t",
            // time-ordered mode with the columns fixed by table or fields: pages end to end
            "* | table _time, sid, user, took",
            "* | fields sid, user",
            "* | rex \"user=(?<u>\\w+)\" | table u, sid | head 3",
            "* | eval t=took*2 | where t>15 OR isnull(t) | table _time, t, sid",
            "* | table sid, nosuch, user | sort sid, -user",
            "sid=s1 | rename user AS who | table who, took | head 2",
            "* | table msg, took, _raw",
            // sort and head before the table: their keys read by the page source too
            "* | sort -took | table user, took",
            "* | sort user, -num(took) | head 4 | table _time, user",
            "* | head 3 | table sid, user",
            "* | head 5 | sort str(took) | fields sid, took",
            // makeresults made as pages, through page stages
            "| makeresults count=1500 annotate=true | eval n=len(host)+1 | where n>0"
                + " | table n, splunk_server, source | head 1100",
            // top and rare as page aggregations (not counted from the index: a command or a
            // by-clause before them, or several fields)
            "* | rex \"user=(?<u>\\w+)\" | top u",
            "* | top sid, user",
            "* | top limit=2 sid by user",
            "* | rare sid showperc=false countfield=n",
            "* | eval m=split(sid, \"1\") | top m showcount=false percentfield=p",
            "* | top user by host | sort - count",
            "* | top limit=1 user by sid | where count > 1",
            "* | top _time, sid",
            // dedup on time-ordered pages, and after an aggregation
            "* | dedup sid | table _time, sid, user",
            "* | dedup 2 user | table user, took",
            "* | dedup sid keepempty=true | table sid, user",
            "* | dedup user consecutive=true | table user",
            "* | dedup user sortby -took | table user, took",
            "* | dedup user, sid | table user, sid",
            "* | eval m=split(sid, \"1\") | dedup m | table m, user",
            "* | stats count by sid, user | dedup user | table user, sid",
            // an aggregation after commands that need time order: one page aggregation
            "* | head 3 | stats count by user",
            "* | dedup user | stats count",
            "* | dedup sid keepempty=true | stats count, values(sid) AS sids by user",
            "* | dedup user consecutive=true | stats count",
            "* | head 5 | top user",
            "* | sort -took | head 2 | stats values(user) AS u",
            "* | head 4 | stats count by sid | sort - count | head 1",
            "GET OR POST | head 4 | timechart span=2s count",
            // plugin commands that run centrally, on the ordered pages of a time-ordered search
            // and after an aggregation
            "* | accum took AS total | table _time, took, total",
            "* | delta took AS d p=2 | table took, d",
            "* | autoregress user p=1-2 | table user, user_p1, user_p2",
            "* | trendline sma2(took) AS s wma3(took) AS w | table took, s, w",
            "* | table sid, user | mvcombine user",
            "* | filldown sid | table sid, user",
            "* | stats count by user | accum count AS running | delta count AS d",
            "* | head 5 | accum took | stats sum(took) AS s",
            // plugin commands reading every field and the built-in page commands, over whole rows
            // (after table fixed the columns, after an aggregation, after a generator)
            "* | table sid, user | mvcombine user",
            "* | table sid, took | fillnull value=none | format",
            "* | table user | append [search sid=s1 | table sid] | return 3 user sid",
            "* | stats count, max(took) AS most by sid, user | fillnull | addtotals | transpose",
            "* | stats count AS c_n, sum(took) AS t_sum by user | foreach *_n *_sum [eval"
                + " <<FIELD>>=<<FIELD>>*2] | addcoltotals labelfield=user",
            "| makeresults count=3 | eval a=1, b_ms=\"250\" | convert auto(*_ms) AS *_n"
                + " | foreach a* [eval <<FIELD>>=<<FIELD>>+1] | eval _time=0",
            // timechart and chart as page aggregations (GET OR POST: not the JSON event, whose
            // time is the time it was loaded)
            "GET OR POST | timechart span=2s count",
            "GET OR POST | timechart span=1s avg(took) AS t, dc(user) by sid",
            "GET OR POST | timechart bins=3 limit=1 count by user",
            "GET OR POST | timechart span=5s useother=false limit=1 sum(took) by sid",
            "GET OR POST | rex \"(?<verb>GET|POST)\" | timechart span=1s count by verb",
            "GET OR POST | timechart span=1s usenull=false max(took) by user | fields - _span",
            "* | chart count over user by sid",
            "* | chart avg(took) over sid",
            "* | chart count over took span=5 by user",
            "* | chart limit=1 count over user by sid | sort - user",
            // the index path on pages (stats count from the term index; host and the like have
            // no keyword doc values here, so IndexCounting hands their events to the page source:
            // KeywordCountShortcutTest and BlockValueCountTest count from doc values and blocks),
            // the reduce after them on pages
            "* | stats count",
            "GET | stats count",
            "* | stats count AS n, count by host",
            "GET OR POST | stats count by host",
            "* | stats count by sourcetype | eval twice=count*2 | sort - twice",
            "* | top host",
            "GET OR POST | top host",
            "POST OR sid | rare sourcetype showperc=false",
            "* | top source countfield=c percentfield=p | head 1",
            "GET OR POST | timechart span=1s count by host",
            "GET OR POST | timechart span=2s limit=1 count by source")) {
      samePagedAnyWay(query);
    }
  }

  @Test
  void eventStatsAndStreamStatsRunOnPagesOnlySamePagedAnyWay() throws Exception {
    // pages-only fails a search that would run a row operator: each of these runs on pages end to
    // end (after an aggregation, after a generator, in time-ordered mode with fixed columns)
    for (String query :
        List.of(
            "* | stats count by sid, user | eventstats sum(count) AS total by user",
            "* | stats count by sid | streamstats count AS n, sum(count) AS running",
            "* | stats count by user, sid | streamstats current=false window=2 values(sid) by user",
            "| makeresults count=7 | streamstats count | eval odd=count%2"
                + " | eventstats max(count) AS most by odd | table count, odd, most",
            "| makeresults count=5 | streamstats count | streamstats reset_after=\"(count=3)\""
                + " sum(count) AS s | table count, s",
            "* | eventstats count AS n, dc(user) AS users by sid | table _time, sid, user, n, users",
            "* | streamstats count, avg(took) AS mean by user | table _time, user, took, count,"
                + " mean",
            "* | streamstats window=2 global=false max(took) AS m by sid | table sid, took, m",
            "* | streamstats time_window=3s count AS recent | table _time, recent | head 4",
            "* | eval t=took*2 | eventstats avg(t) AS mean | where t > mean | table user, t,"
                + " mean",
            "* | accum took AS total | delta took AS d | table _time, took, total, d",
            "| makeresults count=9 | streamstats count | eval odd=count%2"
                + " | stats sum(count) AS s, count by odd",
            "* | stats count by sid | stats avg(count) AS mean",
            // time-ordered (a command before stats needs the events in order), stats on pages
            "* | dedup user | stats count, values(sid) AS sids",
            "* | head 3 | stats count",
            "* | eventstats count AS n by user | where n > 1 | stats sum(took) AS s by user",
            "* | streamstats count AS i | stats max(i) AS last, min(_time) AS first by sid")) {
      samePagedAnyWay(query);
    }
    assertThat(explain("* | stats count by sid | streamstats count AS n"))
        .containsEntry("reduce_on_pages", true);
  }

  /**
   * The commands that hold their whole input — {@code transaction} (its source loading what the
   * commands after it need), {@code bin bins=N}, {@code fieldsummary}, {@code outputlookup} — and
   * {@code dbinspect}'s buckets run with every row operator refused and answer the same paged any
   * way.
   */
  @Test
  void blockingCommandsRunOnPagesOnlySamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "* | transaction user | table user, eventcount, duration",
            "* | transaction sid maxspan=3s | table sid, user, eventcount, duration",
            "* | transaction sid maxpause=2s maxevents=2 | stats count by eventcount",
            "* | transaction user startswith=\"took>5\" keepevicted=true"
                + " | table user, eventcount, closed_txn",
            "* | transaction user endswith=eval(took<11) | table user, took, eventcount",
            "* | transaction sid keeporphans=true | where _txn_orphan=1 | table _time, user",
            "* | transaction user mvlist=true | table user, sid, took, _raw",
            "* | transaction | table eventcount, duration",
            "* | bin took bins=3 AS t | stats count by t",
            "* | bin _time bins=4 | stats count by _time",
            "| makeresults count=3 | streamstats count AS n | outputlookup pe_written.csv"
                + " | stats sum(n) AS s",
            "| inputlookup pe_written.csv | table n",
            // after a table fixed the columns, the events' pages hold whole rows
            "* | table user, sid, took | outputlookup pe_events.csv",
            "| inputlookup pe_events.csv | table user, sid, took",
            "* | table _time, user, took | fieldsummary | table field, count, distinct_count,"
                + " numeric_count, min, max, mean, values",
            "* | stats count by user | fieldsummary | table field, count, distinct_count,"
                + " numeric_count",
            "| dbinspect | stats sum(eventCount) AS events, values(index) AS indexes")) {
      samePagedAnyWay(query);
    }
    assertThat(explain("* | transaction user maxspan=3s | table user, eventcount"))
        .containsEntry("engine", "pages")
        .containsEntry("page_source_fields", List.of("user", "eventcount", "_time"));
  }

  /**
   * {@code join} and {@code appendcols} ({@code HashJoinOperator}, {@code PairedColumnsOperator}),
   * {@code appendpipe}'s commands, {@code map} in time-ordered mode and {@code searchmatch()} over
   * the events' {@code _raw} run with every row operator refused ({@code pages-only}) and answer
   * the same paged any way.
   */
  @Test
  void subsearchCommandsAndSearchmatchRunOnPagesOnly() throws Exception {
    for (String query :
        List.of(
            "* | table user, sid | join user [| inputlookup people.csv]"
                + " | table user, sid, team, level",
            "* | table user, sid | join type=left max=0 user [| inputlookup people.csv]"
                + " | table user, sid, team, level",
            "* | stats count by user | join type=left overwrite=false user"
                + " [| inputlookup people.csv | eval count=level]",
            "* | table user, took | join user [search GET | stats max(took) AS most by user]"
                + " | stats count by user, most",
            "| makeresults count=2 | eval user=\"ann\" | join [| inputlookup people.csv]"
                + " | table user, team",
            "* | stats count by user | appendcols [search * | stats count AS n by sid]",
            "| makeresults | eval a=1 | appendcols [| inputlookup people.csv] | table a, user",
            "* | stats count by user | appendpipe [where count > 1 | eval count=count*10]",
            "* | stats count by user | appendpipe [stats sum(count) AS total]",
            "GET | sort took | map search=\"search sid=$sid$ | stats count\" maxsearches=2",
            "* | eval p=if(searchmatch(\"GET\"), 1, 0) | stats sum(p) AS n by user",
            "* | where searchmatch(\"user=ann OR \\\"Zoë Smith\\\"\") | stats count",
            "* | stats count(eval(searchmatch(\"sid s1\"))) AS c",
            "* | where searchmatch(\"/a*\") | table _time, user",
            "* | where searchmatch(\"TERM(GET) NOT took>10\") | stats count by user")) {
      assertThat(samePagedAnyWay(query)).as(query).doesNotContain("\"error\"").isNotBlank();
    }
  }

  @Test
  void explainShowsTopAndDedupOnPages() {
    assertThat(explain("* | rex \"user=(?<u>\\w+)\" | top u"))
        .containsEntry("engine", "pages")
        .containsEntry("reduce_on_pages", true);
    assertThat(explain("* | rare sid by user | head 3")).containsEntry("engine", "pages");
    assertThat(explain("* | dedup sid | table sid")).containsEntry("engine", "pages");
    assertThat(explain("* | timechart span=1h avg(took) by sid"))
        .containsEntry("engine", "pages")
        .containsEntry("page_source_fields", List.of("_time", "sid", "took"));
    assertThat(explain("* | chart count over user by sid")).containsEntry("engine", "pages");
    // counted from keyword doc values (per time bucket, per value) into the page aggregations,
    // the reduce after them on pages
    assertThat(explain("* | timechart span=1h count by host"))
        .containsEntry("engine", "index")
        .containsEntry("counted_by_time_and_field", "host");
    assertThat(explain("* | top host | fields host, percent"))
        .containsEntry("engine", "index")
        .containsEntry("counted_by_field", "host")
        .containsEntry("reduce_on_pages", true);
    assertThat(explain("* | head 3 | stats count by user"))
        .containsEntry("engine", "pages")
        .containsEntry("page_aggregation", "stats count by user")
        .containsEntry("page_size", 3);
    assertThat(explain("* | stats count, dc(user) AS u by sid | dedup u"))
        .containsEntry("engine", "pages")
        .containsEntry("reduce_on_pages", true);
  }

  private static java.util.Map<String, Object> explain(String query) {
    return server.search().explain(server.search().plan(query, null, null));
  }

  @Test
  void explainShowsRowLocalCommandsOnPages() {
    assertThat(
            explain("* | lookup people.csv user | rex field=team \"(?<t>r)\" | stats count by t"))
        .containsEntry("engine", "pages");
    assertThat(explain("* | dedup user | stats count"))
        .containsEntry("engine", "pages")
        .containsEntry("page_source_fields", List.of("user"));
    assertThat(explain("| makeresults count=2 | eval s=\"a1\" | rex field=s \"(?<d>\\d)\""))
        .containsEntry("engine", "pages");
    assertThat(explain("| makeresults | eval u=1 | transaction u"))
        .containsEntry("engine", "pages");
    // a bare word in startswith searches the page's _raw (none here)
    assertThat(explain("| makeresults | eval u=1 | transaction u startswith=\"login\""))
        .containsEntry("engine", "pages");
    // a search of bare words matches no generated row (not an event), on rows and pages alike; one
    // comparing fields named by a wildcard has no page stage
    assertThat(explain("| makeresults | eval u=1 | search login")).containsEntry("engine", "pages");
    assertThat(explain("| makeresults | eval u=1 | search u*=1")).containsEntry("engine", "pages");
    assertThat(explain("| makeresults count=3 | stats count")).containsEntry("engine", "pages");
    assertThat(explain("| gentimes start=04/11/2021 end=04/14/2021 | where starttime > 0"))
        .containsEntry("engine", "pages");
  }

  /**
   * A search's export in pages of 1,024 rows, checked to agree with it in pages of one row and of
   * three ({@link TestServers#exportDisagreement}).
   */
  private static String samePagedAnyWay(String query) throws Exception {
    String whole = search(query, SearchService.PAGE_SIZE);
    for (int pageSize : new int[] {1, 3}) {
      assertThat(TestServers.exportDisagreement(whole, search(query, pageSize)))
          .as(query + " in pages of " + pageSize)
          .isNull();
    }
    return whole;
  }

  /** A search's export in pages of {@code pageSize} rows. */
  private static String search(String query, int pageSize) throws Exception {
    System.setProperty(SearchService.PAGE_SIZE_PROPERTY, Integer.toString(pageSize));
    try {
      HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
      assertThat(response.statusCode()).as(query + ": " + response.body()).isEqualTo(200);
      return response.body();
    } finally {
      System.clearProperty(SearchService.PAGE_SIZE_PROPERTY);
    }
  }
}
