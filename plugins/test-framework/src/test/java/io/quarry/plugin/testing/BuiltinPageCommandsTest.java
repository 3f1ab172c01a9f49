package io.quarry.plugin.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.parser.QueryParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The built-in page commands through the plugin test kit: each answer is checked again over the
 * same rows in pages of random sizes, and every reserved byte must be released.
 */
class BuiltinPageCommandsTest {
  private static final CommandTester TESTER = CommandTester.builtIns();

  /** 300 rows: a host, a user (missing in every seventh), a multivalue tag, a number as text. */
  private static List<Map<String, Object>> rows() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("host", "web-" + (i % 3));
      if (i % 7 != 0) {
        row.put("user", "u" + (i % 5));
      }
      row.put("tag", i % 2 == 0 ? List.of("a", "b" + (i % 4)) : "c");
      row.put("bytes", (i * 37 % 1000) + "kb");
      row.put("_raw", "GET /p/" + i + " status=" + (i % 4 == 0 ? 500 : 200));
      rows.add(row);
    }
    return rows;
  }

  @Test
  void streamingCommandsKeepTheirAnswerOverAnyPages() {
    var fill = TESTER.run("fillnull value=nobody user", rows());
    assertThat(fill.column("user")).contains("nobody").doesNotContainNull();
    var expanded = TESTER.run("mvexpand tag", rows());
    assertThat(expanded.rows()).hasSize(450);
    var converted = TESTER.run("convert rmunit(bytes) AS b", rows());
    assertThat(converted.column("b").get(1)).isEqualTo(37L);
    var errors = TESTER.run("regex _raw=\"status=5\\d\\d\"", rows());
    assertThat(errors.rows()).hasSize(75);
    var split = TESTER.run("makemv delim=\"/\" _raw", rows());
    assertThat(split.rows().get(0).get("_raw")).isEqualTo(List.of("GET ", "p", "0 status=500"));
    var totals = TESTER.run("addtotals col=true labelfield=host", rows().subList(0, 4));
    assertThat(totals.rows()).hasSize(5);
  }

  @Test
  void holdingCommandsCountTheirState() {
    var combinedAlone = TESTER.run("mvcombine user", onlyHostAndUser());
    assertThat(combinedAlone.rows())
        .hasSize(6); // 3 hosts x 2 tags (rows without a user join their group)
    assertThat(combinedAlone.peakBytes()).isPositive();
    var wide = TESTER.run("xyseries host user tag", onlyHostAndUser());
    assertThat(wide.rows()).hasSize(3);
    var filled = TESTER.run("fillnull", onlyHostAndUser());
    assertThat(filled.column("user")).contains("0");
  }

  private static List<Map<String, Object>> onlyHostAndUser() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Map<String, Object> row : rows()) {
      Map<String, Object> small = new LinkedHashMap<>();
      small.put("host", row.get("host"));
      if (row.containsKey("user")) {
        small.put("user", row.get("user"));
      }
      small.put("tag", row.get("tag") instanceof List<?> l ? l.get(0) : row.get("tag"));
      rows.add(small);
    }
    return rows;
  }

  @Test
  void argumentMistakesAreParseErrors() {
    assertThatThrownBy(() -> TESTER.parse("mvexpand")).isInstanceOf(QueryParseException.class);
    assertThatThrownBy(() -> TESTER.parse("convert nope(x)"))
        .isInstanceOf(QueryParseException.class);
    assertThatThrownBy(() -> TESTER.parse("spath output=x"))
        .isInstanceOf(QueryParseException.class);
  }
}
