package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fields a page source must load for a chain of page stages ({@link InputFields#of}): what
 * {@code rex}, {@code lookup}, a wildcard {@code rename} and the field-wise built-ins read, and
 * that what they write where they match is still loaded for the positions they do not match. A
 * field left out here is a wrong answer on pages (the stage sees no value where the row engine
 * does), so each rule is pinned.
 */
class InputFieldsTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        // rex reads its field; a position it does not match keeps its own value of what it sets
        "rex field=msg \"(?<code>\\d+)\";code;code,msg",
        "rex \"(?<ip>\\S+)\";ip,host;ip,host,_raw",
        "rex field=s mode=sed \"s/a/b/\";s;s",
        // lookup reads its keys (under their field names); outputs keep their own value unmatched
        "lookup users user AS who OUTPUT dept;dept;dept,who",
        "lookup users user;dept,level;dept,level,user",
        // a wildcard rename: a needed new name comes from the old one it renames
        "rename us* AS person*;personer,id;personer,id,user",
        "rename *_ms AS *_sec;a_sec,a_ms;a_sec,a_ms",
        "rename _time AS t;t;t,_time",
        // a wildcard that matches _time too (session 27): renamed in seconds, loaded by its new
        // name
        "rename * AS f_*;f_host;host",
        "rename * AS f_*;f__time,x;_time",
        "rename _t* AS t*;time,host;time,_time,host",
        // field-wise built-ins pass the needed fields through; others add what they read
        "convert auto(*);x,y;x,y",
        "replace a WITH b;x;x",
        "convert num(p) AS q;q;p",
      })
  void sourceLoadsWhatTheStagesRead(String commands, String downstream, String expected) {
    List<Command> parsed = parse(commands);
    assertThat(PageChain.supports(parsed)).as(commands).isTrue();
    assertThat(InputFields.of(parsed, List.of(downstream.split(","))))
        .as(commands)
        .containsExactlyInAnyOrder(expected.split(","));
  }

  /**
   * {@code table *} orders a page's columns by the rows that first name them, as the collector
   * orders each page of {@value RowPaging#BATCH} rows of the row command's: a page of more rows
   * ({@code mvexpand}'s) is cut there, so the rows past the cut list their fields in the order
   * those rows name them. Here 1,000 rows hold only {@code b}, then 100 hold {@code a} and {@code
   * b} (the input's column order): the first 1,024 rows' page has {@code b} first, the rest's
   * {@code a} first; a next input page's rows (holding {@code c} and {@code a}) belong to that
   * second collector page, so they keep its order, {@code c} after it.
   */
  @org.junit.jupiter.api.Test
  void wildcardTableCutsWhereTheCollectorCuts() {
    List<java.util.Map<String, List<Object>>> rows = new java.util.ArrayList<>();
    for (int i = 0; i < 1_100; i++) {
      rows.add(
          i < 1_000
              ? java.util.Map.of("b", List.of("b" + i))
              : java.util.Map.of("a", List.of("a" + i), "b", List.of("b" + i)));
    }
    List<java.util.Map<String, List<Object>>> more = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      more.add(java.util.Map.of("c", List.of("c" + i), "a", List.of("x" + i)));
    }
    List<io.quarry.plugin.api.data.Page> out = new java.util.ArrayList<>();
    PageChain chain =
        PageChain.pulling(
            PagesSource.of(
                List.of(
                        TestPages.page(rows, List.of("a", "b")),
                        TestPages.page(more, List.of("c", "a")))
                    .iterator()),
            parse("table *"),
            new Evaluator(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC),
            out::add,
            new StageStats(List.of("table")),
            0);
    try {
      chain.run();
    } finally {
      chain.close();
    }
    assertThat(out)
        .extracting(io.quarry.plugin.api.data.Page::positionCount)
        .containsExactly(1_024, 76, 100);
    assertThat(out.get(2).schema().columns())
        .extracting(io.quarry.plugin.api.data.Schema.Column::name)
        .containsExactly("a", "b", "c");
    assertThat(out.get(0).schema().columns())
        .extracting(io.quarry.plugin.api.data.Schema.Column::name)
        .containsExactly("b", "a");
    assertThat(out.get(1).schema().columns())
        .extracting(io.quarry.plugin.api.data.Schema.Column::name)
        .containsExactly("a", "b");
    assertThat(out.get(1).block("a").getValues(0)).containsExactly("a1024");
  }

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }
}
