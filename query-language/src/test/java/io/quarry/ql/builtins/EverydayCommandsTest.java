package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static io.quarry.ql.builtins.CommandHarness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.parser.SplText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Session 33's everyday commands over rows cut into pages every way the harness cuts them. */
class EverydayCommandsTest {

  @Test
  void uniqDropsOnlyAResultEqualToTheOneBefore() {
    var out =
        run(
            "uniq",
            List.of(
                row("a", "x", "b", 1L),
                row("a", "x", "b", 1L),
                row("a", "x"),
                row("a", "x", "b", 1L),
                row("a", "x", "b", 1L),
                row("a", "x", "b", List.of(1L, 2L))));
    assertThat(out).extracting(r -> r.get("b")).containsExactly(1L, null, 1L, List.of(1L, 2L));
  }

  @Test
  void extractCutsAtTheDelimitersAndCleansKeys() {
    var out =
        run(
            "extract pairdelim=\";\" kvdelim=\":\"",
            List.of(row("_raw", "user name:ann; 9role : admin ;c:x:y"), row("_raw", "q:\"a;b\"")));
    assertThat(out.get(0))
        .containsEntry("user_name", "ann")
        .containsEntry("role", "admin")
        .doesNotContainKey("c");
    assertThat(out.get(1)).containsEntry("q", "a;b");
  }

  @Test
  void extractWithoutDelimitersIsTheAutomaticKeyValue() {
    var out = run("kv mv_add=t limit=3", List.of(row("_raw", "a=1 b=\"two words\" a=3 c=4")));
    assertThat(out.get(0))
        .containsEntry("a", List.of("1", "3"))
        .containsEntry("b", "two words")
        .doesNotContainKey("c");
  }

  @Test
  void extractCountsTheLimitInTheTextsOrder() {
    var out = run("extract mv_add=t limit=2", List.of(row("_raw", "a=1 b=2 a=3")));
    assertThat(out.get(0)).containsEntry("a", "1").containsEntry("b", "2");
  }

  @Test
  void xmlkvTakesInnermostElementsFirstValue() {
    assertThat(XmlKvCommand.elements("<a x='1'><b>1</b><b>2</b><c></c></a><d>z</d >"))
        .containsExactly(
            java.util.Map.entry("b", List.of("1")), java.util.Map.entry("d", List.of("z")));
  }

  @Test
  void makecontinuousFillsTheGapsInBucketOrder() {
    var out =
        run(
            "makecontinuous x span=5",
            List.of(row("x", 12L, "n", 1L), row("x", "n/a", "n", 2L), row("x", 1L, "n", 3L)));
    // a text among the numbers makes the column text
    assertThat(out).extracting(r -> r.get("x")).containsExactly("0", "5", "10", "n/a");
    assertThat(out).extracting(r -> r.get("n")).containsExactly(3L, null, 1L, 2L);
  }

  @Test
  void addinfoOutsideASearchHasAnUnboundedRangeAndNoId() {
    var out = run("addinfo", List.of(row("a", 1L)));
    assertThat(out.get(0))
        .containsEntry("info_min_time", 0.0)
        .containsEntry("info_max_time", "+Infinity")
        .doesNotContainKey("info_sid");
  }

  @Test
  void theyWriteThemselvesBack() {
    assertThat(
            SplText.command(CommandHarness.parse("extract pairdelim=\"|\", kvdelim=\"=\" limit=5")))
        .isEqualTo("extract pairdelim=\"|\" kvdelim=\"=\" limit=5");
    assertThat(SplText.command(CommandHarness.parse("makecontinuous span=1h end=10")))
        .isEqualTo("makecontinuous _time span=1h end=10");
  }

  @Test
  void badArgumentsAreParseErrors() {
    for (String command :
        List.of(
            "extract kvdelim=\":\"",
            "extract limit=0",
            "extract maxchars=x",
            "kv pairdelim=\"\" kvdelim=\"=\"",
            "extract limit=2 limit=3",
            "xmlkv maxinputs=0",
            "uniq a",
            "addinfo x",
            "makecontinuous x",
            "makecontinuous x y span=1",
            "makecontinuous span=1 start=z")) {
      assertThatThrownBy(() -> CommandHarness.parse(command))
          .as(command)
          .isInstanceOf(QueryParseException.class);
    }
  }

  /** 100,000 filled rows from two results are counted against the memory limit as they are made. */
  @Test
  void makecontinuousFilledRowsCountAgainstTheMemoryLimit() {
    var rows = List.of(row("x", 0L), row("x", 99_999L));
    assertThatThrownBy(
            () -> CommandHarness.runWithLimit("makecontinuous x span=1", rows, 1024 * 1024))
        .isInstanceOf(io.quarry.plugin.api.data.MemoryLimitExceededException.class)
        .hasMessageContaining("makecontinuous");
  }
}
