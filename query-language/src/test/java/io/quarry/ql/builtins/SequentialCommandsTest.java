package io.quarry.ql.builtins;

import static io.quarry.ql.builtins.CommandHarness.row;
import static io.quarry.ql.builtins.CommandHarness.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.command.CommandKind;
import io.quarry.ql.parser.QueryParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * strcat, rangemap, nomv, replace (streaming) and accum, delta, autoregress, trendline (state kept
 * from page to page, so the harness's random page cuts check it) over pages.
 */
class SequentialCommandsTest {
  private static final List<Map<String, Object>> ROWS =
      List.of(
          row("v", 1L, "s", "a"),
          row("v", "x", "s", "b"),
          row("v", 4L),
          row("v", 2.5, "s", List.of("c", "d")),
          row("s", "e"),
          row("v", 10L, "s", "f"));

  @Test
  void accumSkipsWhatIsNotANumber() {
    var out = run("accum v AS t", ROWS);
    assertThat(out).extracting(r -> r.get("t")).containsExactly(1.0, null, 5.0, 7.5, null, 17.5);
    assertThat(run("accum v", ROWS.subList(0, 3)))
        .extracting(r -> r.get("v"))
        .containsExactly("1", "x", "5");
    assertThat(CommandHarness.parse("accum v").kind()).isEqualTo(CommandKind.CENTRALIZED);
  }

  @Test
  void deltaComparesPResultsBack() {
    assertThat(run("delta v", ROWS))
        .extracting(r -> r.get("delta(v)"))
        .containsExactly(null, null, null, -1.5, null, null);
    List<Map<String, Object>> numbers = new ArrayList<>();
    for (long i = 0; i < 12; i++) {
      numbers.add(row("v", i * i));
    }
    assertThat(run("delta v AS d p=3", numbers))
        .extracting(r -> r.get("d"))
        .containsExactly(null, null, null, 9L, 15L, 21L, 27L, 33L, 39L, 45L, 51L, 57L);
  }

  @Test
  void autoregressCopiesEarlierValues() {
    var out = run("autoregress s p=1-2", ROWS);
    assertThat(out)
        .extracting(r -> r.get("s_p1"))
        .containsExactly(null, "a", "b", null, List.of("c", "d"), "e");
    assertThat(out)
        .extracting(r -> r.get("s_p2"))
        .containsExactly(null, null, "a", "b", null, List.of("c", "d"));
    assertThatThrownBy(() -> CommandHarness.parse("autoregress s AS x p=1-2"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("single p");
    assertThatThrownBy(() -> CommandHarness.parse("autoregress s p=3-1"))
        .isInstanceOf(QueryParseException.class);
  }

  @Test
  void trendlineAveragesOverFullWindows() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 1; i <= 6; i++) {
      rows.add(row("v", i));
    }
    var out = run("trendline sma3(v) wma2(v) AS w ema3(v) AS e", rows);
    assertThat(out)
        .extracting(r -> r.get("sma3(v)"))
        .containsExactly(null, null, 2.0, 3.0, 4.0, 5.0);
    // wma2: (1*older + 2*newer) / 3
    assertThat(out.get(1).get("w")).isEqualTo(5.0 / 3);
    // ema3: alpha 0.5, seeded with the sma of 1, 2, 3
    assertThat(out).extracting(r -> r.get("e")).containsExactly(null, null, 2.0, 3.0, 4.0, 5.0);
    assertThatThrownBy(() -> CommandHarness.parse("trendline sma10001(v)"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("from 2 to 10000");
  }

  @Test
  void strcatJoinsFieldsAndText() {
    var out = run("strcat s \"-\" v out", ROWS);
    assertThat(out)
        .extracting(r -> r.get("out"))
        .containsExactly("a-1", "b-x", "-4", "c-2.5", "e-", "f-10");
    var required = run("strcat allrequired=t s \"-\" v out", ROWS);
    assertThat(required)
        .extracting(r -> r.get("out"))
        .containsExactly("a-1", "b-x", null, "c-2.5", null, "f-10");
  }

  @Test
  void rangemapNamesEveryMatchingRange() {
    var out = run("rangemap field=v low=0-2 mid=2-5 high=5.5-100", ROWS);
    assertThat(out)
        .extracting(r -> r.get("range"))
        .containsExactly("low", "None", "mid", "mid", "None", "high");
    assertThat(run("rangemap field=v a=0-1 b=1-2", ROWS.subList(0, 1)).get(0).get("range"))
        .isEqualTo(List.of("a", "b"));
    assertThatThrownBy(() -> CommandHarness.parse("rangemap field=v low=5-1"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("starts above its end");
  }

  @Test
  void nomvAndReplaceWorkOnEveryValue() {
    assertThat(run("nomv s", ROWS).get(3).get("s")).isEqualTo("c\nd");
    var out = run("replace c WITH C, * WITH \"<*>\" IN s", ROWS);
    assertThat(out)
        .extracting(r -> r.get("s"))
        .containsExactly("<a>", "<b>", null, List.of("C", "<d>"), "<e>", "<f>");
  }
}
