package io.quarry.server.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review of session 34 (review-c2): the search page runs the query of its URL ({@code /ui/?q=}) as
 * soon as a signed-in user opens it, and again on the browser's back button. A link is how a
 * stranger reaches an admin: a search that writes ({@code collect}) must not run from one
 * unconfirmed (Splunk's "SPL safeguards for risky commands"), nor run again on back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WritingSearchLinkTest {
  private static final String PASSWORD = "ui-test-password";

  @TempDir static Path dataDirectory;
  @AutoClose private QuarryServer server;
  @AutoClose private Chromium browser;
  private TestHttp http;

  @BeforeAll
  void start() throws Exception {
    server =
        QuarryServer.start(
            TestServers.settings(dataDirectory, PASSWORD)
                .put("indexes", List.of("main", "summary"))
                .build(),
            Clock.systemUTC());
    http = new TestHttp(server.url());
    browser = Chromium.start(1280, 800);
    browser.navigate(server.url() + "/");
    browser.waitUntil("the sign-in form", Chromium.visible("#signin-form"));
    browser.eval("document.querySelector('#signin-password').value = ''");
    browser.click("#signin-password");
    browser.type(PASSWORD);
    browser.click("#signin-form button[type=submit]");
    browser.waitUntil("the search page", Chromium.visible("#query"));
  }

  @Test
  void aLinkDoesNotRunASearchThatWritesUnconfirmed() throws Exception {
    String forged =
        "| makeresults | eval _raw=\"Accepted password for root from 203.0.113.9\""
            // no sourcetype=linux_secure: the server refuses one read as kvMode auto itself
            // (CollectSourcetype), which would hide what this test is about, the page's safeguard
            + " | collect index=main host=bastion marker=\"run=link\"";
    browser.navigate(server.url() + "/ui/?q=" + URLEncoder.encode(forged, StandardCharsets.UTF_8));
    browser.waitUntil("the search page", Chromium.visible("#query"));
    Thread.sleep(3000); // what the page would have run by now
    assertThat(count("index=main run=link"))
        .as("events written with the admin's rights by opening a link")
        .isZero();
  }

  @Test
  void theBackButtonDoesNotRunASearchThatWroteAgain() throws Exception {
    browser.eval("document.querySelector('#query').value = ''");
    browser.click("#query");
    browser.type("| makeresults | eval n=1 | collect index=summary marker=\"run=back\"");
    browser.press("Enter");
    browser.waitFor("the collect", () -> uncheckedCount("index=summary run=back") > 0);
    Thread.sleep(1000);
    browser.eval("document.querySelector('#query').value = ''");
    browser.click("#query");
    browser.type("| makeresults | eval other=1");
    browser.press("Enter");
    Thread.sleep(1500);
    long before = count("index=summary run=back");
    browser.eval("history.back()");
    Thread.sleep(3000);
    assertThat(count("index=summary run=back")).as("written again by back").isEqualTo(before);
  }

  @Test
  void aSearchWhoseMacroCollectsRunsOnce() throws Exception {
    // the page skips its timeline job ("<search> | timechart count") only when the text shows
    // "| collect"; a macro hides it, and the timeline runs the collect again
    String admin = TestHttp.basic("admin", PASSWORD);
    http.export(
        admin, "| makeresults count=3 | eval seed=1 | collect index=main marker=\"seed=1\"");
    assertThat(
            http.send(
                    "PUT",
                    "/api/v1/macros/to_summary",
                    admin,
                    "{\"definition\": \"collect index=summary marker=\\\"run=macro\\\"\"}")
                .statusCode())
        .isBetween(200, 204);
    browser.eval("document.querySelector('#query').value = ''");
    browser.click("#query");
    browser.type("index=main seed=1 | `to_summary`");
    browser.press("Enter");
    browser.waitFor("the collect", () -> uncheckedCount("index=summary run=macro") > 0);
    Thread.sleep(3000); // the timeline job's turn
    assertThat(count("index=summary run=macro"))
        .as("the search's 3 events, written once")
        .isEqualTo(3);
  }

  private long uncheckedCount(String query) {
    try {
      return count(query);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private long count(String query) throws Exception {
    return http.export(TestHttp.basic("admin", PASSWORD), query + " | stats count")
        .get(0)
        .path("count")
        .asLong();
  }
}
