package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.PrometheusText;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review b44: the labels of {@code quarry_search_failures_total{stage,status,code}} come from a
 * fixed set whatever the user wrote: many kinds of failed searches (bad syntax, unknown commands,
 * functions, macros and lookups, writes from an export, a failing subsearch, a search over its
 * memory limit), each with text of its own, leave series whose {@code code} is one of the API's
 * stable codes, {@code stage} planning or running and {@code status} an HTTP error status — never a
 * message, a name the user gave or an exception's class. A real server over HTTP.
 */
class FailureCodeLabelsTest {
  private static final String PASSWORD = "failure-labels-password";
  private static final Set<String> CODES =
      Set.of(
          "QUERY_PARSE",
          "SEARCH_NOT_SUPPORTED",
          "SEARCH_WRITES",
          "MEMORY_LIMIT",
          "SEARCH_MEMORY_BREAKER",
          "SUBSEARCH_FAILED",
          "PLUGIN_FAILED",
          "INTERNAL",
          "INVALID_PARAMETER",
          "INDEX_NOT_FOUND",
          "NOT_FOUND",
          "FORBIDDEN");

  @TempDir static Path data;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry = SearchTestServer.startWithSearchMemory(data, PASSWORD, 2L * 1024 * 1024);
  }

  @Test
  void theFailuresLabelsAreAFixedSetWhateverTheQuery() throws Exception {
    List<String> queries =
        List.of(
            "search index=main | stats count( userTextOne",
            "| makeresults | frobnicateUserTextTwo x=1",
            "| makeresults | eval x=userTextThreeFunction(1)",
            "search `userTextFourMacro`",
            "| makeresults | lookup userTextFiveLookup k OUTPUT v",
            "| inputlookup userTextSix.csv",
            "| makeresults | eval x=1 | collect index=userTextSeven",
            "| makeresults | search [ | makeresults | userTextEight ]",
            "| makeresults count=200000 | eval userTextNine=random() | stats count by userTextNine",
            "| makeresults | eval x=tonumber(\"userTextTen\", 99)");
    int failed = 0;
    StringBuilder answers = new StringBuilder();
    for (String query : queries) {
      HttpResponse<String> answer = quarry.export(query);
      answers.append(answer.statusCode()).append(' ').append(query).append('\n');
      if (answer.statusCode() >= 400) {
        failed++;
      }
    }
    PrometheusText metrics = quarry.scrape();
    String body = metrics.toString();
    Matcher series =
        Pattern.compile("(?m)^quarry_search_failures_total\\{([^}]*)\\} (\\S+)$").matcher(body);
    Set<String> codes = new TreeSet<>();
    while (series.find()) {
      String labels = series.group(1);
      assertThat(labels).as(body).doesNotContainIgnoringCase("userText");
      Matcher code = Pattern.compile("code=\"([^\"]*)\"").matcher(labels);
      assertThat(code.find()).as(labels).isTrue();
      codes.add(code.group(1));
      assertThat(labels).as(labels).containsPattern("stage=\"(planning|running)\"");
      assertThat(labels).as(labels).containsPattern("status=\"[45]\\d\\d\"");
    }
    assertThat(failed).as("most of these queries fail:\n%s", answers).isGreaterThanOrEqualTo(6);
    assertThat(metrics.failures()).as(body).isGreaterThanOrEqualTo(failed);
    assertThat(CODES).as("the codes seen: %s after\n%s", codes, answers).containsAll(codes);
  }
}
