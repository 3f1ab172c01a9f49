package io.quarry.server.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import io.quarry.server.demo.DemoData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The search page in a real headless Chromium against a real server holding the demo data: sign in,
 * search, events newest first with the terms highlighted, the timeline summing to the count, a
 * field value added to (and excluded from) the search, statistics and charts matching the API, the
 * inspector, a cancelled long search, a parse error at the caret, a phone's layout. Screenshots of
 * the steps go to {@code server/target/ui-screenshots/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UiBrowserTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SHOTS = Path.of("target", "ui-screenshots");
  private static final String PASSWORD = "ui-test-password";

  @TempDir static Path dataDirectory;
  private QuarryServer server;
  private Chromium browser;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  void start() throws Exception {
    server =
        QuarryServer.start(
            TestServers.settings(dataDirectory, PASSWORD)
                .put("indexes", List.of("main", DemoData.WEB_INDEX))
                .put(
                    "hec.tokens",
                    List.of(new HecToken(TestServers.TOKEN, "test", "main", List.of("main"), null)))
                .build(),
            Clock.systemUTC());
    DemoData.loadOnce(server.ingest(), server.dataDirectory(), Instant.now());
    browser = Chromium.start(1440, 900);
  }

  @AfterAll
  void stop() throws Exception {
    try {
      if (browser != null) {
        browser.close();
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  @Test
  void aSplunkUserCanSearchInTheBrowser() throws Exception {
    // a browser asking for / is sent to the page, which asks to sign in
    browser.navigate(server.url() + "/");
    assertThat(browser.text("location.pathname")).isEqualTo("/ui/");
    browser.waitUntil("the sign-in form", Chromium.visible("#signin-form"));

    signIn("wrong");
    browser.waitUntil("a refused sign-in", Chromium.visible("#signin-error"));
    assertThat(browser.text("document.querySelector('#signin-error').textContent"))
        .contains("Wrong user name or password");
    signIn(PASSWORD);
    browser.waitUntil("the search page", Chromium.visible("#query"));
    browser.waitUntil("the examples", "document.querySelectorAll('#examples button').length > 0");
    browser.screenshot(SHOTS.resolve("01-start.png"));

    // an event search: events newest first, terms highlighted, the timeline sums to the count
    search("index=web status=404");
    long notFound = count("index=web status=404");
    waitForDone();
    browser.waitUntil("events", "document.querySelectorAll('#events tr.event').length > 0");
    assertThat(browser.text("document.querySelector('#job-state').textContent")).contains("Done");
    assertThat(eventCount()).isEqualTo(notFound);
    assertThat(browser.eval("document.querySelectorAll('#events tr.event').length").asInt())
        .isEqualTo((int) Math.min(100, notFound));
    JsonNode marks =
        browser.eval("[...document.querySelectorAll('#events mark')].map(m => m.textContent)");
    assertThat(marks.size()).isGreaterThan(0);
    marks.forEach(mark -> assertThat(mark.asText()).isEqualTo("404"));
    assertThat(
            browser
                .eval(
                    "(() => { const t = [...document.querySelectorAll('#events .event-time')]"
                        + ".map(e => e.textContent); return t.every((x, i) => i === 0 ||"
                        + " parse(t[i - 1]) >= parse(x)); function parse(s) { const m ="
                        + " s.match(/(\\d+)\\/(\\d+)\\/(\\d+) (\\d+):(\\d+):(\\d+)\\.(\\d+)/);"
                        + " return new Date(2000 + +m[3], m[1] - 1, m[2], m[4], m[5], m[6],"
                        + " m[7]).getTime(); } })()")
                .asBoolean())
        .as("events newest first")
        .isTrue();
    browser.waitUntil("the timeline", "document.querySelector('#timeline canvas')");
    browser.waitUntil("the whole timeline", "document.querySelector('#timeline').dataset.complete");
    assertThat(browser.text("document.querySelector('#timeline').dataset.total"))
        .isEqualTo(Long.toString(notFound));

    // a click on a timeline column narrows the range to it: the count is the column's
    browser.eval("document.querySelector('#timeline').scrollIntoView()");
    JsonNode column =
        browser.eval(
            "(() => { const u = document.querySelector('#timeline').plot; const [t, c] = u.data;"
                + " const i = c.findIndex(n => n > 0); const r = u.over.getBoundingClientRect();"
                + " return {x: r.left + u.valToPos(t[i], 'x') + 3, y: r.bottom - 2, count: c[i]};"
                + " })()");
    double x = column.get("x").asDouble();
    double y = column.get("y").asDouble();
    browser.mouse("mouseMoved", x, y, 0);
    browser.mouse("mousePressed", x, y, 0);
    browser.mouse("mouseReleased", x, y, 0);
    browser.waitUntil(
        "a narrowed range", "document.querySelector('#time-button').textContent !== 'All time'");
    waitForDone();
    assertThat(eventCount()).isEqualTo(column.get("count").asLong());
    browser.click("#timeline-zoom-out");
    browser.waitUntil(
        "the range back", "document.querySelector('#time-button').textContent === 'All time'");
    waitForDone();
    assertThat(eventCount()).isEqualTo(notFound);

    // dragging across the timeline zooms into that range
    browser.waitUntil("the timeline again", "document.querySelector('#timeline').dataset.complete");
    browser.eval("document.querySelector('#timeline').scrollIntoView()");
    JsonNode area =
        browser.eval(
            "(() => { const r = document.querySelector('#timeline').plot.over"
                + ".getBoundingClientRect(); return {left: r.left, width: r.width, y: r.top +"
                + " r.height / 2}; })()");
    double from = area.get("left").asDouble() + area.get("width").asDouble() * 0.25;
    double to = area.get("left").asDouble() + area.get("width").asDouble() * 0.5;
    double middle = area.get("y").asDouble();
    browser.mouse("mouseMoved", from, middle, 0);
    browser.mouse("mousePressed", from, middle, 0);
    for (int step = 1; step <= 5; step++) {
      browser.mouse("mouseDragged", from + (to - from) * step / 5, middle, 0);
    }
    browser.mouse("mouseReleased", to, middle, 0);
    browser.waitUntil(
        "a zoomed range", "document.querySelector('#time-button').textContent.includes('–')");
    waitForDone();
    assertThat(eventCount()).isGreaterThan(0).isLessThan(notFound);
    browser.click("#timeline-zoom-out");
    browser.waitUntil(
        "the range back", "document.querySelector('#time-button').textContent === 'All time'");
    waitForDone();

    // more events load as the list is scrolled
    browser.waitUntil(
        "the first page of the finished job",
        "document.querySelector('#events').dataset.complete === 'true'");
    browser.eval("document.querySelector('#events-more').scrollIntoView()");
    browser.waitUntil(
        "the second page of events", "document.querySelectorAll('#events tr.event').length > 100");
    assertThat(browser.text("document.querySelector('#events-more').textContent"))
        .as("one more page, not a runaway")
        .startsWith("Showing 200 of " + notFound + " events");

    // the fields sidebar: a value clicked is added to the search, and the count is the API's
    browser.waitUntil(
        "the fields sidebar", "document.querySelector('#fields li[data-name=\"method\"]')");
    browser.eval("scrollTo(0, 0)");
    browser.screenshot(SHOTS.resolve("02-events.png"));
    browser.click("#fields li[data-name=\"method\"]");
    browser.waitUntil("the field's values", Chromium.visible("#field-popover .value"));
    browser.screenshot(SHOTS.resolve("03-field-values.png"));
    String method = browser.text("document.querySelector('#field-popover .value').dataset.value");
    browser.click("#field-popover .value");
    String filtered = "index=web status=404 method=" + method;
    browser.waitUntil(
        "the value in the search", "document.querySelector('#query').value === '" + filtered + "'");
    waitForDone();
    assertThat(eventCount()).isEqualTo(count(filtered));

    // shift-click excludes a value
    browser.waitUntil(
        "the fields sidebar", "document.querySelector('#fields li[data-name=\"status\"]')");
    browser.click("#fields li[data-name=\"status\"]");
    browser.waitUntil("the field's values", Chromium.visible("#field-popover .value"));
    browser.click("#field-popover .value", 8);
    browser.waitUntil(
        "an excluded value", "document.querySelector('#query').value.includes('NOT status=')");
    waitForDone();

    // the time picker: a preset changes the range and runs again
    setQueryAndRun("index=web");
    waitForDone();
    browser.click("#time-button");
    browser.waitUntil("the time picker", Chromium.visible("#time-panel"));
    browser.screenshot(SHOTS.resolve("04-time-picker.png"));
    browser.click("#time-presets button:nth-child(1)"); // last 15 minutes: the demo data is older
    waitForDone();
    assertThat(browser.text("document.querySelector('#time-button').textContent"))
        .isEqualTo("Last 15 minutes");
    assertThat(eventCount()).isZero();
    browser.click("#time-button");
    browser.click("#time-presets button:last-child"); // all time
    waitForDone();
    assertThat(eventCount()).isEqualTo(count("index=web"));

    // statistics: a sortable table that matches the API, and a chart of it
    setQueryAndRun("index=web | stats count by status");
    waitForDone();
    browser.waitUntil(
        "the statistics table", "document.querySelectorAll('#stats-table tbody tr').length > 0");
    assertThat(tableRows()).isEqualTo(apiRows("index=web | stats count by status"));
    browser.click("#stats-table th[data-column=\"1\"]"); // count, largest first
    List<String> sortedCounts = new ArrayList<>();
    browser
        .eval(
            "[...document.querySelectorAll('#stats-table tbody tr td:nth-child(2)')].map(t => t.textContent)")
        .forEach(n -> sortedCounts.add(n.asText().replace(",", "")));
    assertThat(sortedCounts)
        .isSortedAccordingTo((a, b) -> Long.compare(Long.parseLong(b), Long.parseLong(a)));
    browser.screenshot(SHOTS.resolve("05-statistics.png"));

    // export: the job's results as CSV, through the page's own download
    browser.eval(
        "window.exported = []; const original = URL.createObjectURL;"
            + " URL.createObjectURL = (blob) => { window.exported.push(blob); return original(blob); }");
    browser.click("#export-button");
    browser.click("#export-menu button[data-format=\"csv\"]");
    browser.waitUntil("the CSV download", "window.exported.length === 1");
    String csv = browser.text("window.exported[0].text()");
    assertThat(csv.lines().findFirst()).hasValue("status,count");
    assertThat(csv.lines().count()).isEqualTo(tableRows().size() + 1);
    browser.click(".tab[data-tab=\"visualization\"]");
    browser.waitUntil(
        "a column chart", "document.querySelectorAll('#chart svg rect[data-series]').length > 0");
    assertThat(
            browser
                .eval("document.querySelectorAll('#chart svg rect[data-series]').length")
                .asInt())
        .isEqualTo(tableRows().size());
    browser.click("#chart-types button[data-chart=\"pie\"]");
    browser.waitUntil("a pie chart", "document.querySelector('#chart svg.chart-pie path')");

    // timechart: a chart whose series are the table's columns
    setQueryAndRun("index=web | timechart span=1h count by method");
    waitForDone();
    browser.waitUntil("the time chart", "document.querySelector('#chart canvas')");
    List<String> series = new ArrayList<>();
    browser
        .eval(
            "[...document.querySelectorAll('#chart-legend [data-series]')].map(e => e.dataset.series)")
        .forEach(s -> series.add(s.asText()));
    List<String> columns = apiColumns("index=web | timechart span=1h count by method");
    assertThat(series).isEqualTo(columns.subList(1, columns.size()));
    browser.screenshot(SHOTS.resolve("06-timechart.png"));

    // the job inspector
    browser.click("#job-inspect");
    browser.waitUntil(
        "the inspector's stages", "document.querySelector('#inspector-body table.stages')");
    assertThat(browser.text("document.querySelector('#inspector-body').textContent"))
        .contains("timechart")
        .contains("Buckets searched");
    browser.screenshot(SHOTS.resolve("07-inspector.png"));
    browser.press("Escape");
    browser.waitUntil("the inspector closed", "!document.querySelector('#inspector').open");

    // a wrong query: the parser's message, and the token underlined where it failed
    setQueryAndRun("index=web | stast count");
    browser.waitUntil("the parse error", Chromium.visible("#search-error"));
    assertThat(browser.text("document.querySelector('#search-error').textContent"))
        .contains("Unknown search command 'stast'");
    assertThat(browser.text("document.querySelector('#editor-highlight .tok-error').textContent"))
        .isEqualTo("stast");
    browser.screenshot(SHOTS.resolve("08-parse-error.png"));

    // completion: a command after a pipe
    browser.eval("document.querySelector('#query').value = ''");
    browser.click("#query");
    browser.type("index=web | sta");
    browser.waitUntil("command completions", Chromium.visible("#completions"));
    assertThat(
            browser.text(
                "document.querySelector('#completions li[aria-selected=true] .name').textContent"))
        .startsWith("sta");
    browser.press("Escape");

    // a long search, finalized: it stops and keeps what it found. Each row (its own value, so no
    // answer is reused) costs a regex with a backreference over 20 a's, which java.util.regex
    // cannot memoize (~2^20 steps, ~17 ms a row): hours for a million, so the job still runs when
    // the button is clicked however loaded or fast the machine. Without the backreference
    // ^(a+)+$ is memoized by java.util.regex (~13 us over 32 a's): a million rows took ~2 s and
    // the cancelled search below finished in ~0.2 s, racing the click (CI failed on it)
    setQueryAndRun(
        "| makeresults count=1000000 | eval s=\"aaaaaaaaaaaaaaaaaaaa!\" . random()"
            + " | where match(s, \"^(a+)+\\\\1$\") OR s!=\"\"");
    browser.waitUntil("a running search", Chromium.visible("#job-finalize"));
    browser.click("#job-finalize");
    waitForJobState("Finalized");

    // a long search, cancelled: one evaluation of the same backtracking regex over 40 a's (the
    // value is constant, so pages may share one answer) outlasts any test; the cancel stops it
    // inside the regex (StoppableText)
    setQueryAndRun(
        "| makeresults count=1000000 | eval s=\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\""
            + " | where match(s, \"^(a+)+\\\\1$\")");
    browser.waitUntil("a running search", Chromium.visible("#job-cancel"));
    browser.click("#job-cancel");
    waitForJobState("Cancelled");
    boolean cancelled = false;
    for (JsonNode job : get("/api/v1/jobs").get("jobs")) {
      if (job.get("query").asText().startsWith("| makeresults")) {
        assertThat(job.get("state").asText()).isEqualTo("CANCELLED");
        cancelled = true;
      }
    }
    assertThat(cancelled).as("the long search's job").isTrue();

    // a search that writes (collect) runs once: no timeline or field summary runs it again
    setQueryAndRun("index=web status=404 | collect index=main marker=\"ui=collected\"");
    waitForDone();
    Thread.sleep(500); // what a timeline or field summary job would have written by now
    assertThat(count("index=main ui=collected")).isEqualTo(count("index=web status=404"));

    // dark, on a phone
    setQueryAndRun("index=web status>=500");
    waitForDone();
    browser.click("#theme");
    browser.viewport(390, 844, true);
    browser.waitUntil("events", "document.querySelectorAll('#events tr.event').length > 0");
    Thread.sleep(300); // the timeline redraws at the new width
    browser.eval("scrollTo(0, 0)");
    browser.screenshot(SHOTS.resolve("09-phone-dark.png"));
    assertThat(browser.eval("document.documentElement.scrollWidth <= 390").asBoolean())
        .as("no sideways scrolling on a phone")
        .isTrue();
    browser.viewport(1440, 900, false);

    assertThat(browser.pageErrors()).isEmpty();
  }

  /**
   * Waits up to 60 s (the server stopping a job, which a loaded machine stretches) for the job bar
   * to say {@code state}; a timeout names what the page and the server said instead.
   */
  private void waitForJobState(String state) throws Exception {
    try {
      browser.waitUntil(
          "the job state " + state,
          "document.querySelector('#job-state').textContent.includes('" + state + "')",
          60);
    } catch (AssertionError timedOut) {
      List<String> jobs = new ArrayList<>();
      for (JsonNode job : get("/api/v1/jobs").get("jobs")) {
        jobs.add(job.get("state").asText() + " " + job.get("query").asText());
      }
      throw new AssertionError(
          timedOut.getMessage()
              + "; the page says '"
              + browser.text("document.querySelector('#job-state').textContent")
              + "', its failure '"
              + browser.text(
                  "document.querySelector('#search-error').hidden ? '' : document.querySelector('#search-error').textContent")
              + "'; the server's jobs: "
              + jobs,
          timedOut);
    }
  }

  /** The count on the Events tab. */
  private long eventCount() {
    return Long.parseLong(
        browser
            .text("document.querySelector('#tab-events-count').textContent")
            .replaceAll("[^0-9]", ""));
  }

  private void signIn(String password) {
    browser.eval("document.querySelector('#signin-password').value = ''");
    browser.click("#signin-password");
    browser.type(password);
    browser.click("#signin-form button[type=submit]");
  }

  private void search(String query) {
    browser.click("#query");
    browser.type(query);
    browser.press("Enter");
  }

  private void setQueryAndRun(String query) {
    browser.eval("document.querySelector('#query').value = ''");
    search(query);
  }

  private void waitForDone() {
    browser.waitUntil(
        "the search to finish",
        "(() => { const s = document.querySelector('#job-state').textContent;"
            + " return s.includes('Done') || s.includes('Failed'); })()");
    // the page's own follow-up reads (results, timeline) settle
    browser.waitUntil(
        "results on the page",
        "document.querySelector('#tab-events-count').textContent !== ''"
            + " || document.querySelectorAll('#stats-table tr').length > 0");
  }

  private List<List<String>> tableRows() {
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode row :
        browser.eval(
            "[...document.querySelectorAll('#stats-table tbody tr')]"
                + ".map(r => [...r.cells].map(c => c.textContent))")) {
      List<String> cells = new ArrayList<>();
      row.forEach(cell -> cells.add(cell.asText().replace(",", "")));
      rows.add(cells);
    }
    return rows;
  }

  private static final String AUTH =
      "Basic "
          + Base64.getEncoder()
              .encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8));

  private JsonNode get(String path) throws Exception {
    return JSON.readTree(
        http.send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                    .header("Authorization", AUTH)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body());
  }

  private JsonNode job(String query) throws Exception {
    String auth = AUTH;
    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/jobs"))
                .header("Authorization", auth)
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(Map.of("query", query, "mode", "blocking"))))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    String id = JSON.readTree(created.body()).get("id").asText();
    return JSON.readTree(
        http.send(
                HttpRequest.newBuilder(
                        URI.create(server.url() + "/api/v1/jobs/" + id + "/results?count=1000"))
                    .header("Authorization", auth)
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body());
  }

  private long count(String query) throws Exception {
    return job(query + " | stats count").get("rows").get(0).get(0).asLong();
  }

  private List<List<String>> apiRows(String query) throws Exception {
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode row : job(query).get("rows")) {
      List<String> cells = new ArrayList<>();
      row.forEach(cell -> cells.add(cell.asText()));
      rows.add(cells);
    }
    return rows;
  }

  private List<String> apiColumns(String query) throws Exception {
    List<String> columns = new ArrayList<>();
    job(query).get("fields").forEach(f -> columns.add(f.get("name").asText()));
    return columns;
  }
}
