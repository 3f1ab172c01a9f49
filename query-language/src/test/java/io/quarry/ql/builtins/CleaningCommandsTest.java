package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static io.quarry.ql.builtins.CommandHarness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.ql.parser.QueryParseException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** fillnull, convert and regex over pages. */
class CleaningCommandsTest {
  private static final List<Map<String, Object>> ROWS =
      List.of(
          row("a", 1L, "b", "x"),
          row("a", 2L),
          row("b", "y", "c", 2.5),
          row("c", 1.5),
          row("a", 7L, "b", "z", "c", 3.0));

  @Test
  void fillnullFillsTheGivenFieldsAndKeepsTheirType() {
    var out = run("fillnull a c", ROWS);
    assertThat(out).extracting(r -> r.get("a")).containsExactly(1L, 2L, 0L, 0L, 7L);
    assertThat(out).extracting(r -> r.get("c")).containsExactly(0.0, 0.0, 2.5, 1.5, 3.0);
    assertThat(out).extracting(r -> r.get("b")).containsExactly("x", null, "y", null, "z");
    assertThat(CommandHarness.parse("fillnull a").kind()).isEqualTo(CommandKind.STREAMING);
  }

  @Test
  void fillnullWithoutFieldsFillsEveryFieldAnyRowHas() {
    var out = run("fillnull value=NULL", ROWS);
    assertThat(out.get(1))
        .containsEntry("a", "2")
        .containsEntry("b", "NULL")
        .containsEntry("c", "NULL");
    assertThat(out.get(3)).containsEntry("a", "NULL").containsEntry("b", "NULL");
    assertThat(out.get(0)).as("a text fill makes the column text").containsEntry("a", "1");
    assertThat(CommandHarness.parse("fillnull").kind()).isEqualTo(CommandKind.CENTRALIZED);
  }

  @Test
  void fillnullAddsAnAbsentField() {
    var out = run("fillnull value=\"n/a\" missing", ROWS);
    assertThat(out).extracting(r -> r.get("missing")).containsOnly("n/a");
  }

  /**
   * fillnull without fields holds every page, then fills and emits each: over the memory limit
   * while filling a later page (a field the earlier pages lack is added to them whole), the pages
   * already emitted are not released again as held ones, nor the failing page's blocks lost; at
   * every limit up to what the run needs, closing leaves nothing counted.
   */
  @Test
  void fillnullFailingWhileFillingReleasesEachPageOnce() {
    List<Map<String, Object>> withoutA = new java.util.ArrayList<>();
    List<Map<String, Object>> withA = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      withoutA.add(row("b", "v" + i));
      withA.add(i % 2 == 0 ? row("a", (long) i, "b", "w" + i) : row("b", "w" + i));
    }
    List<List<Map<String, Object>>> pages = List.of(withA, withoutA, withoutA, withoutA);
    for (long limit = 256; limit <= 64 << 10; limit += 256) {
      assertThat(CommandHarness.leftAfterLimit("fillnull value=0", pages, limit))
          .as("fillnull under a limit of %d bytes released what it counted", limit)
          .isZero();
    }
  }

  @Test
  void convertTurnsTextIntoNumbers() {
    var rows =
        List.of(
            row("size", "10k", "d", "1+02:03:04", "m", "01:23.5", "n", "1,234", "u", "32ms"),
            row("size", "2m", "d", "00:00:30", "m", "9", "n", "abc", "u", "x"),
            row("size", "1.5G", "d", "bad", "m", "bad", "n", "7", "u", "5.5 kb"));
    var out = run("convert memk(size) dur2sec(d) mstime(m) num(n) rmunit(u)", rows);
    assertThat(out).extracting(r -> r.get("size")).containsExactly(10L, 2048L, 1572864L);
    assertThat(out).extracting(r -> r.get("d")).containsExactly("93784", "30", "bad");
    assertThat(out).extracting(r -> r.get("m")).containsExactly("83.5", "9", "bad");
    assertThat(out).extracting(r -> r.get("n")).containsExactly(1234L, null, 7L);
    assertThat(out).extracting(r -> r.get("u")).containsExactly("32", "x", "5.5");
  }

  @Test
  void convertTimesBothWaysWithAs() {
    var rows = List.of(row("t", 1767787200L, "s", "01/07/2026 12:00:05"));
    var out = run("convert ctime(t) AS text mktime(s) AS epoch", rows);
    assertThat(out.get(0))
        .containsEntry("text", "01/07/2026 12:00:00")
        .containsEntry("t", 1767787200L)
        .containsEntry("epoch", 1767787205L);
    var formatted = run("convert timeformat=\"%Y-%m-%d\" ctime(t)", rows);
    assertThat(formatted.get(0)).containsEntry("t", "2026-01-07");
  }

  @Test
  void convertWildcardsRenameAndNoneExcludes() {
    var rows = List.of(row("a_ms", "1", "b_ms", "2", "c", "3", "_hidden", "4"));
    var out = run("convert auto(*_ms) AS *_n", rows);
    assertThat(out.get(0))
        .containsEntry("a_n", 1L)
        .containsEntry("b_n", 2L)
        .containsEntry("a_ms", "1");
    var all = run("convert auto(*) none(c)", rows);
    assertThat(all.get(0))
        .containsEntry("a_ms", 1L)
        .containsEntry("c", "3")
        .containsEntry("_hidden", "4");
  }

  @Test
  void convertParseErrorsPointAtTheMistake() {
    assertThatThrownBy(() -> CommandHarness.parse("convert foo(x)"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("Unknown convert function 'foo'");
    assertThatThrownBy(() -> CommandHarness.parse("convert"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("at least one conversion");
    assertThatThrownBy(() -> CommandHarness.parse("convert auto(x"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("')'");
    assertThatThrownBy(() -> CommandHarness.parse("convert num(x) AS *_y"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("more wildcards");
    assertThatThrownBy(() -> CommandHarness.parse("convert tf=1 auto(x)"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("Unknown option 'tf'");
  }

  @Test
  void regexKeepsMatchingRows() {
    var rows =
        List.of(
            row("_raw", "GET /a 200", "ip", "10.0.0.1"),
            row("_raw", "POST /b 500", "ip", "192.168.1.2"),
            row("_raw", "GET /c 404"),
            row("_raw", "x", "ip", List.of("8.8.8.8", "10.9.9.9")));
    assertThat(run("regex \"^GET\"", rows)).hasSize(2);
    assertThat(run("regex _raw=\" [45]\\d\\d$\"", rows)).hasSize(2);
    assertThat(run("regex ip=\"^10\\.\"", rows))
        .extracting(r -> r.get("_raw"))
        .containsExactly("GET /a 200", "x");
    assertThat(run("regex ip!=\"^10\\.\"", rows))
        .extracting(r -> r.get("_raw"))
        .containsExactly("POST /b 500", "GET /c 404");
  }

  @Test
  void regexErrors() {
    assertThatThrownBy(() -> CommandHarness.parse("regex field=\"(\""))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("invalid regular expression");
    assertThatThrownBy(() -> CommandHarness.parse("regex"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("regular expression");
    assertThatThrownBy(() -> CommandHarness.parse("regex a=\"b\" c"))
        .isInstanceOf(QueryParseException.class);
  }
}
